#version 310 es
// GLSL ES 3.10 §4.1.9: only the last member of a shader storage block may be
// sized at run time; every other array is sized at compile time.
layout(local_size_x = 1) in;
buffer B {
    int c[];
    vec4 d;
};
void main()
{
    d = vec4(c[0]);
}
