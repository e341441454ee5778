// [config]
// expect_result: pass
// glsl_version: 4.20
// [end config]
//
// GLSL 4.20 §7.3: the atomic counter limits, buffer counts and buffer size
// are built-in constants of every stage, and atomic_uint is core.
#version 420
layout(binding = 0) uniform atomic_uint a;
out vec4 color;
void main()
{
    int n = gl_MaxVertexAtomicCounters + gl_MaxFragmentAtomicCounters
        + gl_MaxGeometryAtomicCounters + gl_MaxCombinedAtomicCounters
        + gl_MaxAtomicCounterBindings + gl_MaxFragmentAtomicCounterBuffers
        + gl_MaxCombinedAtomicCounterBuffers + gl_MaxAtomicCounterBufferSize;
    color = vec4(float(n) + float(atomicCounter(a)));
}
