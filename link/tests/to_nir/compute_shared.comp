#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
// GLSL 4.30 §4.3.8 shared variables, §7.1.3 compute built-ins, §8.15 barrier().
layout(local_size_x = 8, local_size_y = 2) in;

shared float partial[16];
shared uint hits;

layout(std430, binding = 1) buffer Result {
    float sums[];
} result;

void main()
{
    uint i = gl_LocalInvocationIndex;
    partial[i] = float(gl_GlobalInvocationID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x);
    if (i == 0u)
        hits = 0u;
    barrier();
    uint inc = gl_LocalInvocationID.y + 1u;
    atomicAdd(hits, inc);
    memoryBarrierShared();
    groupMemoryBarrier();
    for (uint stride = gl_WorkGroupSize.x; stride > 0u; stride /= 2u) {
        if (i < stride)
            partial[i] += partial[i + stride];
        barrier();
    }
    if (i == 0u)
        result.sums[gl_WorkGroupID.x] = partial[0] + float(hits);
}
