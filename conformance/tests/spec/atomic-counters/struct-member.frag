// [config]
// expect_result: fail
// glsl_version: 1.40
// require_extensions: GL_ARB_shader_atomic_counters
// [end config]
//
// GLSL 4.20 §4.1.7.1: counters are not struct members (Mesa: "atomic counter
// in structure, shader storage block or uniform block").
#version 140
#extension GL_ARB_shader_atomic_counters: require
struct S { atomic_uint c; };
out vec4 color;
void main()
{
    color = vec4(0.0);
}
