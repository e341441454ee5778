// [config]
// expect_result: pass
// glsl_version: 1.40
// require_extensions: GL_ARB_shader_atomic_counters GL_ARB_shader_atomic_counter_ops
// [end config]
//
// ARB_shader_atomic_counter_ops: every operation takes the counter and uint
// data (compare and data for the compare-and-swap) and returns a uint.
#version 140
#extension GL_ARB_shader_atomic_counters: require
#extension GL_ARB_shader_atomic_counter_ops: require
layout(binding = 0) uniform atomic_uint a;
out vec4 color;
void main()
{
    uint r = atomicCounterAddARB(a, 1u) + atomicCounterSubtractARB(a, 1u)
        + atomicCounterMinARB(a, 1u) + atomicCounterMaxARB(a, 1u)
        + atomicCounterAndARB(a, 1u) + atomicCounterOrARB(a, 1u)
        + atomicCounterXorARB(a, 1u) + atomicCounterExchangeARB(a, 1u)
        + atomicCounterCompSwapARB(a, 1u, 2u);
    color = vec4(float(r));
}
