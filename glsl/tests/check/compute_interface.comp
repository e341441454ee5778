#version 330
#extension GL_ARB_compute_shader : require
// ARB_compute_shader: no user-defined inputs or outputs; GLSL 4.30 §4.3.8:
// shared variables are global and have no initializer.
layout(local_size_x = 1) in;
in vec4 a;
out vec4 b;
shared float c = 1.0;
uniform int u;
void main()
{
    shared int local;
    int plain;
    atomicAdd(plain, 1);
    atomicAdd(u, 1);
    atomicMin(c, 1.0);
}
