// [config]
// expect_result: fail
// glsl_version: 1.40
// require_extensions: GL_ARB_shader_atomic_counters
// [end config]
//
// GLSL 4.20 §4.4.4.6: two counters of one binding may not share storage;
// `b` at offset 8 lies inside the array `a` (offsets 0..15).
#version 140
#extension GL_ARB_shader_atomic_counters: require
layout(binding = 0) uniform atomic_uint a[4];
layout(binding = 0, offset = 8) uniform atomic_uint b;
out vec4 color;
void main()
{
    color = vec4(float(atomicCounter(a[0]) + atomicCounter(b)));
}
