#version 130
uniform float f;
uniform int i;
uniform uint u;
uniform vec3 v;
uniform ivec2 iv;
uniform mat2 m;
out vec4 color;

void main()
{
    float a = f + 1.0 - f * 2.0 / 3.0;
    int b = i * 3 / 2 - i % 5;
    uint c = u * 2u + u / 3u - u % 7u;
    vec3 d = v * f + 1.0 - v / 2.0;
    ivec2 e = iv * 2 + i;
    mat2 g = m * 2.0 + m - m / 4.0;
    float n = -a;
    int k = i;
    k++;
    ++k;
    k--;
    --k;
    d += v;
    d -= 1.0;
    d *= f;
    d /= 2.0;
    e %= 3;
    color = vec4(d, n + float(b) + float(c) + float(k) + float(e.x) + g[0][0]);
}
