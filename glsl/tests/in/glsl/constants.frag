#version 130
const float pi = 3.14159265;
const int count = 2 + 3 * 4;
const uint mask = 0xFFFFFFFFu;
const bool flag = !false && true;
const vec3 axis = vec3(1.0, -0.0, 0.5) * 2.0;
const mat2 rot = mat2(0.0, 1.0, -1.0, 0.0);
const float table[3] = float[3](1.0e-7, 1.0e7, -2.5);
const ivec2 sizes = ivec2(count, count / 3);
struct P { int a; float b; };
const P pair = P(7, 0.125);
uniform float values[count];
out vec4 color;

void main()
{
    float tiny = 0.0000001;
    float huge = 123456789.0;
    float folded = pi * 2.0 + sin(0.0) + sqrt(16.0);
    int bits = int(mask >> 28u) + (flag ? 1 : 0) + sizes.y + pair.a;
    vec2 r = rot * vec2(1.0, 0.0);
    color = vec4(axis * table[2], folded + tiny + huge + values[count - 1] + float(bits) + r.y + pair.b);
}
