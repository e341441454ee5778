#version 430
// GLSL 4.30 §8.11: atomic memory functions on a storage buffer are atomic
// across every invocation of the dispatch, whichever workgroup (and
// thread) runs it. Each invocation takes a ticket, adds its global index,
// raises the maximum, lowers the minimum and sets its bit.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Counters {
    uint next;
    uint sum;
    uint maximum;
    uint minimum;
    uint bits[32];
};
layout(std430, binding = 1) buffer Tickets { uint tickets[]; };
void main() {
    uint gid = gl_GlobalInvocationID.x;
    tickets[gid] = atomicAdd(next, 1u);
    atomicAdd(sum, gid);
    atomicMax(maximum, gid);
    atomicMin(minimum, gid);
    atomicOr(bits[gid / 32u], 1u << (gid % 32u));
}
