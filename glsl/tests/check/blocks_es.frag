#version 300 es
precision mediump float;
// Blocks in ES 3.00 and outputs.
uniform U { vec4 a; } u;
in I { vec4 b; } i;
out O { vec4 c; } o;
out vec4 color;
void main()
{
    color = u.a;
}
