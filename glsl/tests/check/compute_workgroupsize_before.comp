#version 330
#extension GL_ARB_compute_shader : require
// GLSL 4.30 §7.1: gl_WorkGroupSize may not be used before the local size is
// declared; afterwards it is a constant expression.
uint early()
{
    return gl_WorkGroupSize.x;
}
layout(local_size_x = 3, local_size_y = 5, local_size_z = 7) in;
const uvec3 size = gl_WorkGroupSize;
int check[size.y == 5u ? 1 : -1];
void main()
{
}
