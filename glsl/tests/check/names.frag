#version 120
// Undeclared names, redeclarations, reserved names.
struct S { float a; };
struct S { int b; };
float gl_mine;
float a__b;
uniform float u;
float u;
void main()
{
    float x = y;
    float x;
    S s;
    s.c = 1.0;
    gl_FragColor = vec4(x);
}
