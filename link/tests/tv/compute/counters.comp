#version 430
// The GLSL 4.20 §8.10 atomic counter functions, lowered to
// storage-buffer atomics on block ATOMIC_COUNTER_BLOCK_BASE + binding;
// 8 counters, the compute limit (gl_MaxComputeAtomicCounters).
layout(local_size_x = 8) in;
layout(binding = 0) uniform atomic_uint inc;
layout(binding = 0) uniform atomic_uint dec;
layout(binding = 0) uniform atomic_uint grid[2][3];
layout(std430, binding = 0) buffer Out {
  uint olds[8];
  uint decs[8];
  uint reads[8];
};

void main() {
  uint i = gl_LocalInvocationIndex;
  olds[i] = atomicCounterIncrement(inc);
  decs[i] = atomicCounterDecrement(dec);
  atomicCounterIncrement(grid[i % 2u][i % 3u]);
  barrier();
  reads[i] = atomicCounter(grid[1][2]);
}
