#version 330
#extension GL_ARB_compute_shader : require
// GLSL 4.30 §7.1 compute built-ins, §4.3.8 shared variables, §4.4.1.1 the
// local size, §8.15/§8.16 barriers and §8.11 atomics on shared variables.
layout(local_size_x = 4, local_size_y = 2) in;
shared uint counter;
shared vec4 tile[gl_WorkGroupSize.x * gl_WorkGroupSize.y];
uniform vec4 scale;

void main()
{
    uint i = gl_LocalInvocationIndex;
    tile[i] = scale * float(gl_GlobalInvocationID.x + gl_WorkGroupID.y + gl_NumWorkGroups.z);
    memoryBarrierShared();
    barrier();
    uint previous = atomicAdd(counter, gl_LocalInvocationID.x);
    atomicCompSwap(counter, previous, 0u);
    groupMemoryBarrier();
    memoryBarrier();
    ivec3 limit = gl_MaxComputeWorkGroupSize + gl_MaxComputeWorkGroupCount;
    tile[0].x = float(limit.z + gl_MaxComputeUniformComponents);
}
