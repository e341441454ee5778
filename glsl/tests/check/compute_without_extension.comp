#version 330
// Without GLSL 4.30 or GL_ARB_compute_shader there is no `shared`, no
// local size and no compute built-in.
layout(local_size_x = 1) in;
void main()
{
    uvec3 id = gl_GlobalInvocationID;
}
