#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
// A workgroup sum through shared memory (GLSL 4.30 §4.3.8) with barrier()
// between the steps (§8.15), the workgroup built-ins (§7.1.3) and atomics on a
// shared counter and a buffer variable (§8.11).
layout(local_size_x = 8, local_size_y = 2) in;

shared uint partial[16];
shared uint arrivals;

layout(std430, binding = 0) buffer Input { uint values[]; } src;
layout(std430, binding = 1) buffer Output {
    uint total;
    uint order[16];
    uvec3 ids[4];
} dst;

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint g = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * 16u;
    partial[i] = src.values[g & 63u] & 255u;
    if (i == 0u)
        arrivals = 0u;
    barrier();
    uint one = 1u;
    uint rank = atomicAdd(arrivals, one);
    dst.order[i] = rank;
    for (uint stride = 8u; stride > 0u; stride >>= 1u) {
        if (i < stride)
            partial[i] += partial[i + stride];
        barrier();
    }
    if (i == 0u) {
        uint sum = partial[0];
        atomicAdd(dst.total, sum);
    }
    if (i < 4u)
        dst.ids[i] = gl_WorkGroupID * 100u + gl_NumWorkGroups * 10u + gl_LocalInvocationID;
}
