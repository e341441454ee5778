#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
// Every invocation records gl_NumWorkGroups and its global index, so an
// indirect dispatch's counts can be checked.
layout(local_size_x = 2, local_size_y = 2) in;
layout(std430, binding = 5) buffer Out { uvec4 groups; uint hits[]; };
void main() {
    groups = uvec4(gl_NumWorkGroups, 1u);
    uvec3 size = gl_NumWorkGroups * gl_WorkGroupSize;
    uvec3 g = gl_GlobalInvocationID;
    atomicAdd(hits[g.x + size.x * (g.y + size.y * g.z)], 1u);
}
