#version 150
// Declarations of every kind.
precision highp float;
layout(std140, row_major) uniform Block {
    mat4 mvp;
    layout(column_major) mat3 normal;
    vec4 colors[2];
} blocks[2];
uniform Unnamed { float scale; };
layout(location = 1 + 1) in vec4 position;
flat out int id;
smooth centroid out vec2 coord;
noperspective out float depth;
invariant gl_Position;
invariant centroid out vec3 normal_out;
struct Inner { float a[2][3]; };
struct { Inner inner; int n; } anonymous, more[3];
float[3] sized;
float unsized[];
const int N = 3, M[2] = int[](1, 2);
float proto(float, int[2], const in mat2 m);
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
void main() {
    Inner x = Inner(float[2][3](float[3](1.0, 2.0, 3.0), float[3](4.0, 5.0, 6.0)));
    int len = x.a.length() + x.a[0].length();
    for (;;) { break; }
    for (int i = 0, j = 1; i < j; ++i, --j) ;
    while (bool b = len > 0) { len--; }
    float t = len > 0 ? len > 1 ? 1.0 : 2.0 : 3.0;
    t = (t, t + 1.0);
    id = int(t) << 2 >> 1 & 7 | 8 ^ 3;
    bool c = t < 1.0 && t > 0.0 || t <= 2.0 ^^ t >= 3.0 || t == 4.0 && t != 5.0;
    t += t -= t *= t /= 2.0;
    {
        ;
    }
    if (c) { t = 1.0; } else if (!c) { t = 2.0; } else t = 3.0;
    gl_Position = blocks[0].mvp * position;
}
