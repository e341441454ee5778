#version 140
#extension GL_ARB_arrays_of_arrays : enable
// Arrays of arrays are valid uniforms (GLSL 4.30 §4.1.9): in the default
// block, inside structs, as block members and as arrays of block instances.
// No diagnostic.
uniform vec4 u[2][3];
struct S { float f[2][2]; };
uniform S s;
uniform B { vec4 member[2][2]; };
uniform C { vec4 c; } instances[2][2];
vec4 global_ok[2][3];
void main()
{
    gl_Position = global_ok[1][2];
}
