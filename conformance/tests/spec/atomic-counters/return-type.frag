// [config]
// expect_result: fail
// glsl_version: 1.40
// require_extensions: GL_ARB_shader_atomic_counters
// [end config]
//
// GLSL 4.20 §6.1: a function cannot return an opaque type.
#version 140
#extension GL_ARB_shader_atomic_counters: require
layout(binding = 0) uniform atomic_uint a;
atomic_uint pick() { return a; }
out vec4 color;
void main()
{
    color = vec4(0.0);
}
