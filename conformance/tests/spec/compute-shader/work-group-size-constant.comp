// [config]
// expect_result: pass
// glsl_version: 3.30
// require_extensions: GL_ARB_compute_shader
// [end config]
//
// GLSL 4.30 §7.1: gl_WorkGroupSize is a constant usable to size arrays of
// shared memory, and the compute system values are uvec3 / uint.
#version 330
#extension GL_ARB_compute_shader: require
layout(local_size_x = 8, local_size_y = 4) in;
shared float tile[gl_WorkGroupSize.x * gl_WorkGroupSize.y];
void main()
{
    uvec3 ids = gl_NumWorkGroups + gl_WorkGroupID + gl_LocalInvocationID
        + gl_GlobalInvocationID;
    uint index = gl_LocalInvocationIndex;
    tile[index] = float(ids.x);
}
