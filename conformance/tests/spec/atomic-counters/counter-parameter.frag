// [config]
// expect_result: pass
// glsl_version: 1.40
// require_extensions: GL_ARB_shader_atomic_counters
// [end config]
//
// GLSL 4.20 §4.1.7: counters may be passed to `in` parameters, elements of
// counter arrays included, and indexed dynamically.
#version 140
#extension GL_ARB_shader_atomic_counters: require
layout(binding = 0) uniform atomic_uint hits[4];
uniform int which;
uint bump(atomic_uint c) { return atomicCounterIncrement(c); }
out vec4 color;
void main()
{
    color = vec4(float(bump(hits[2]) + atomicCounter(hits[which])));
}
