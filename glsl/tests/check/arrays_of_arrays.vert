#version 120
#extension GL_ARB_arrays_of_arrays : enable
// GLSL 4.30 §4.1.9: without an initializer only the outermost dimension
// may be unsized.
vec4 outer_unsized[][2];
vec4[][] both_unsized;
vec4 inner_unsized[2][];
vec4[3][2] sized;
void main()
{
    gl_Position = outer_unsized[3][1] + sized[2][1];
}
