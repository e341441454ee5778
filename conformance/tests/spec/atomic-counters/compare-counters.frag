// [config]
// expect_result: fail
// glsl_version: 1.40
// require_extensions: GL_ARB_shader_atomic_counters
// [end config]
//
// GLSL 4.20 §4.1.7: opaque variables are not operands of `==`.
#version 140
#extension GL_ARB_shader_atomic_counters: require
layout(binding = 0) uniform atomic_uint a;
layout(binding = 0) uniform atomic_uint b;
out vec4 color;
void main()
{
    color = vec4(a == b ? 1.0 : 0.0);
}
