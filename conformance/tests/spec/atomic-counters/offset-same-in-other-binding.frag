// [config]
// expect_result: pass
// glsl_version: 1.40
// require_extensions: GL_ARB_shader_atomic_counters
// [end config]
//
// GLSL 4.20 §4.4.4.6: offsets are per binding, so equal offsets in different
// bindings do not overlap.
#version 140
#extension GL_ARB_shader_atomic_counters: require
layout(binding = 0, offset = 4) uniform atomic_uint a;
layout(binding = 1, offset = 4) uniform atomic_uint b;
out vec4 color;
void main()
{
    color = vec4(float(atomicCounter(a) + atomicCounter(b)));
}
