#version 430
#extension GL_ARB_shader_atomic_counter_ops : require
layout(local_size_x = 4) in;
layout(binding = 0) uniform atomic_uint hits;
layout(binding = 0) uniform atomic_uint grid[2][3];
layout(binding = 2, offset = 8) uniform atomic_uint ops[9];
layout(std430, binding = 1) buffer Out { uint r[12]; };

uint bump(atomic_uint c) { return atomicCounterIncrement(c); }

void main() {
  uint i = gl_LocalInvocationIndex;
  r[0] = bump(hits);
  r[1] = atomicCounterDecrement(grid[1][2]);
  r[2] = atomicCounter(grid[i % 2u][i % 3u]);
  r[3] = atomicCounterAddARB(ops[0], 5u);
  r[4] = atomicCounterSubtractARB(ops[1], 2u);
  r[5] = atomicCounterMinARB(ops[2], i);
  r[6] = atomicCounterMaxARB(ops[3], i);
  r[7] = atomicCounterAndARB(ops[4], 6u);
  r[8] = atomicCounterOrARB(ops[5], 1u << i);
  r[9] = atomicCounterXorARB(ops[6], 3u);
  r[10] = atomicCounterExchangeARB(ops[7], i);
  r[11] = atomicCounterCompSwapARB(ops[8], 0u, i + 1u);
}
