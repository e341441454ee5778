// [config]
// expect_result: pass
// glsl_version: 1.40
// require_extensions: GL_ARB_shader_atomic_counters
// [end config]
//
// GLSL 4.20 §4.4.4.6: without an offset a counter takes the binding's next
// free offset (the end of the previous counter of that binding); bindings
// count separately, and an array takes 4 bytes per element.
#version 140
#extension GL_ARB_shader_atomic_counters: require
layout(binding = 0) uniform atomic_uint a;       // binding 0, offset 0
layout(binding = 0) uniform atomic_uint b[3];    // binding 0, offsets 4..15
layout(binding = 1) uniform atomic_uint c;       // binding 1, offset 0
layout(binding = 0) uniform atomic_uint d;       // binding 0, offset 16
layout(binding = 0, offset = 32) uniform atomic_uint e; // explicit
layout(binding = 0) uniform atomic_uint f;       // binding 0, offset 36
out vec4 color;
void main()
{
    uint sum = atomicCounter(a) + atomicCounterIncrement(b[1]) + atomicCounterDecrement(c)
        + atomicCounter(d) + atomicCounter(e) + atomicCounter(f);
    color = vec4(float(sum));
}
