#version 130
// Writes to read-only values and non-l-values.
uniform float u;
in vec4 pos;
const float c = 1.0;
void f(out float x) { x = 1.0; }
void g(inout vec2 v) { v = vec2(0.0); }
void main()
{
    vec4 v = pos;
    u = 1.0;
    pos = vec4(1.0);
    c = 2.0;
    v.xx = vec2(1.0);
    f(u);
    f(1.0);
    g(v.xx);
    1.0 = 2.0;
    u++;
    float arr[];
    float s[2];
    s = arr;
    gl_Position = v;
}
