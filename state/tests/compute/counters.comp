#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_atomic_counters : require
// Every invocation takes a ticket from `tickets` and, for odd tickets,
// decrements `odd_down` (declared without an offset: the next free one of
// binding 1, 8); `hits[2]` counts the workgroups (GLSL 4.20 §8.10).
layout(local_size_x = 16) in;
layout(binding = 1, offset = 4) uniform atomic_uint tickets;
layout(binding = 1) uniform atomic_uint odd_down;
layout(binding = 3) uniform atomic_uint hits[3];
void main() {
    uint t = atomicCounterIncrement(tickets);
    if ((t & 1u) == 1u)
        atomicCounterDecrement(odd_down);
    if (gl_LocalInvocationIndex == 0u)
        atomicCounterIncrement(hits[2]);
}
