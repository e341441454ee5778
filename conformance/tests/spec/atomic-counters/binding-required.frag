// [config]
// expect_result: fail
// glsl_version: 1.40
// require_extensions: GL_ARB_shader_atomic_counters
// [end config]
//
// A counter names its atomic counter buffer binding point; there is no
// default (Mesa: "atomic counters require explicit binding point").
#version 140
#extension GL_ARB_shader_atomic_counters: require
uniform atomic_uint a;
out vec4 color;
void main()
{
    color = vec4(float(atomicCounter(a)));
}
