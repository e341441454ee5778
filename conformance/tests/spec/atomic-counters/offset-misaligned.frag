// [config]
// expect_result: fail
// glsl_version: 1.40
// require_extensions: GL_ARB_shader_atomic_counters
// [end config]
//
// GLSL 4.20 §4.4.4.6: a counter's offset must be a multiple of 4.
#version 140
#extension GL_ARB_shader_atomic_counters: require
layout(binding = 0, offset = 6) uniform atomic_uint a;
out vec4 color;
void main()
{
    color = vec4(float(atomicCounter(a)));
}
