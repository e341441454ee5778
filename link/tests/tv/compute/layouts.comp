#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
// Reads and writes through std140 and std430 blocks (GLSL 4.30 §4.3.7, GL 4.3
// §7.6.2.2): vectors, column- and row-major matrices, arrays of structs,
// booleans, vector components picked dynamically, an array of blocks indexed
// dynamically.
layout(local_size_x = 4) in;

struct Item { ivec3 a; bool on; uvec2 b; };

layout(std140, binding = 2) buffer Std140 {
    mat3 m;
    layout(row_major) mat2x3 r;
    Item items[3];
    float f[4];
} s1;

layout(std430, binding = 3) buffer Std430 {
    vec3 v;
    mat2 m2;
    layout(row_major) mat3x2 r2;
    Item items[3];
    float f[4];
    bool flags[];
};

layout(std430, binding = 5) buffer Pair { uint x; uvec2 y[2]; } pairs[2];

void main()
{
    uint id = gl_LocalInvocationID.x;
    uint k = id % 3u;
    int sel = s1.items[k].a[id % 3u];
    items[k].a = s1.items[2u - k].a + ivec3(sel);
    items[k].on = s1.items[k].on && !flags[id];
    items[k].b[id & 1u] = s1.items[k].b.y + uint(s1.f[id]);
    f[id] = s1.m[id % 3u][k] + s1.r[1][k] + m2[id & 1u][0] + r2[k][1];
    v[k] = float(id);
    flags[id + 4u] = s1.items[k].on;
    pairs[id & 1u].y[id >> 1u] = uvec2(pairs[1u - (id & 1u)].x, id);
    s1.r[0][id % 3u] = f[3u - id];
}
