// [config]
// expect_result: fail
// glsl_version: 1.40
// require_extensions: GL_ARB_shader_atomic_counters
// [end config]
//
// GLSL 4.20 §4.4.4.6: `layout(binding, offset) uniform atomic_uint;` sets the
// binding's next offset, so `b` (no offset) lands at 8 — where `a` already is.
#version 140
#extension GL_ARB_shader_atomic_counters: require
layout(binding = 2, offset = 8) uniform atomic_uint a;
layout(binding = 2, offset = 8) uniform atomic_uint;
layout(binding = 2) uniform atomic_uint b;
out vec4 color;
void main()
{
    color = vec4(float(atomicCounter(a) + atomicCounter(b)));
}
