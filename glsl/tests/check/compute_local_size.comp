#version 330
#extension GL_ARB_compute_shader : require
// GLSL 4.30 §4.4.1.1: every declaration gives the same size; each dimension
// is at least 1 and at most gl_MaxComputeWorkGroupSize, the product at most
// MAX_COMPUTE_WORK_GROUP_INVOCATIONS (1024).
layout(local_size_x = 8, local_size_y = 8) in;
layout(local_size_y = 8, local_size_x = 8, local_size_z = 1) in;
layout(local_size_x = 8) in;
layout(local_size_z = 0) in;
layout(local_size_z = -2) in;
layout(local_size_z = 65) in;
layout(local_size_x = 1024, local_size_y = 2) in;
layout(local_size_x = 2) uniform float u;
layout(local_size_x = 2) out;
void main()
{
}
