#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
// Each 128-invocation workgroup sums its 128 input words in shared memory,
// halving the active invocations with a barrier after each step; every
// invocation then takes a ticket from a shared counter in the output buffer.
layout(local_size_x = 128) in;
layout(std430, binding = 0) buffer Input { uint values[]; };
layout(std430, binding = 1) buffer Output { uint tickets; uint sums[]; };
shared uint partial[128];
void main() {
    uint i = gl_LocalInvocationIndex;
    partial[i] = values[gl_GlobalInvocationID.x];
    barrier();
    for (uint stride = 64u; stride > 0u; stride >>= 1) {
        if (i < stride)
            partial[i] += partial[i + stride];
        barrier();
    }
    if (i == 0u)
        sums[gl_WorkGroupID.x] = partial[0];
    values[gl_GlobalInvocationID.x] = atomicAdd(tickets, 1u);
}
