#version 120
// invariant redeclarations.
varying vec4 color;
uniform vec4 u;
invariant color;
invariant u;
invariant nothere;
void main()
{
    gl_Position = u;
    color = u;
}
invariant gl_Position;
