#version 130
// Declaration rules.
const float c;
const float d = gl_Vertex.x;
uniform float u = 1.0;
in float input1 = 1.0;
out float output1 = 1.0;
uniform sampler2D s = 1;
void v;
float a[0];
float b[-1];
float e[1.5];
float f[ivec2(1)];
int n = 2;
float g[n];
float h[2][2];
float k[2] = float[3](1.0, 2.0, 3.0);
float l = vec2(1.0);
float;
struct Empty {};
struct T { void x; float y[]; float y; };
void main()
{
    invariant gl_Position;
    gl_Position = vec4(c + d + u + input1 + a[0] + b[0] + e[0] + f[0] + g[0] + h[0][0] + k[0] + l);
}
