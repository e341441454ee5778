#version 150
#extension GL_ARB_arrays_of_arrays : enable
// GLSL 4.10 §7.1: a gl_PerVertex input redeclaration must be `gl_in[]`,
// so not an array of arrays.
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in gl_PerVertex {
    vec4 gl_Position;
} gl_in[][3];
void main() { }
