#version 430
// GLSL 4.30 §8.16: a barrier() in a loop with a uniform trip count. Each
// round every invocation publishes its value in shared memory, waits, and
// takes its right neighbour's value plus one, waiting again before the
// next round overwrites the ring. After `rounds` rounds invocation i holds
// (i + rounds) % N + rounds. The workgroup (8×4×2 = 64 invocations) is
// larger than one 16-lane batch, so every batch must stop at each barrier.
layout(local_size_x = 8, local_size_y = 4, local_size_z = 2) in;
layout(std430, binding = 0) buffer Out { uint result[]; };
layout(std430, binding = 1) buffer Ids { uvec4 ids[]; };
uniform uint rounds;
shared uint ring[64];
void main() {
    uint i = gl_LocalInvocationIndex;
    uint g = gl_WorkGroupID.x + gl_NumWorkGroups.x * gl_WorkGroupID.y;
    uint v = i;
    for (uint r = 0u; r < rounds; ++r) {
        ring[i] = v;
        barrier();
        v = ring[(i + 1u) % 64u] + 1u;
        barrier();
    }
    result[g * 64u + i] = v;
    uvec3 l = gl_LocalInvocationID;
    ids[g * 64u + i] = uvec4(gl_GlobalInvocationID.x, gl_GlobalInvocationID.y,
                             gl_GlobalInvocationID.z, l.x + 8u * l.y + 32u * l.z);
}
