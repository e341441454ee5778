#version 430
#extension GL_ARB_shader_atomic_counter_ops : require
// The ARB_shader_atomic_counter_ops functions on storage-buffer words
// (binding 1, offsets 4..36), one through a function taking the counter.
layout(local_size_x = 8) in;
layout(binding = 1, offset = 4) uniform atomic_uint ops[8];
layout(std430, binding = 0) buffer Out { uint rest[8]; };

uint sub_from(atomic_uint c, uint v) { return atomicCounterSubtractARB(c, v); }

void main() {
  uint i = gl_LocalInvocationIndex;
  uint r = sub_from(ops[0], i);
  r ^= atomicCounterMinARB(ops[1], i * 3u);
  r ^= atomicCounterMaxARB(ops[2], i * 5u);
  r ^= atomicCounterAndARB(ops[3], ~(1u << i));
  r ^= atomicCounterOrARB(ops[4], 1u << i);
  r ^= atomicCounterXorARB(ops[5], i * 7u);
  r ^= atomicCounterExchangeARB(ops[6], i);
  r ^= atomicCounterCompSwapARB(ops[7], i, i + 100u);
  rest[i] = r;
}
