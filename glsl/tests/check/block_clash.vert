#version 140
// Block names are global names.
uniform a { vec4 b; };
float a(void) { return b.x; }
struct a { float f; };
float a;
void main()
{
    gl_Position = b;
}
