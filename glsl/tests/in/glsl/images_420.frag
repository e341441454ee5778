#version 420
// GLSL 4.20 §4.1.7.2 image types, §4.4.6.2 format layout qualifiers, §4.10
// memory qualifiers and the §8.12 image functions as kept built-in calls.
layout(rgba32f, binding = 2) readonly uniform image2D src;
layout(r32ui) coherent uniform uimage3D counters;
layout(rgba8i) uniform iimage2DArray layers[2];
writeonly uniform imageBuffer out_buf;
layout(r32i) uniform iimage2DMS ms;
uniform ivec2 p;
out vec4 color;

vec4 fetch(readonly image2D img, ivec2 at)
{
    return imageLoad(img, at);
}

void main()
{
    color = fetch(src, p) + imageLoad(src, p + 1);
    uint old = imageAtomicAdd(counters, ivec3(p, 0), 1u);
    old += imageAtomicCompSwap(counters, ivec3(0), old, 2u);
    ivec4 v = imageLoad(layers[1], ivec3(p, 1));
    imageStore(layers[0], ivec3(p, 0), v);
    imageStore(out_buf, p.x, color);
    int s = imageAtomicMax(ms, p, 3, v.x);
    color.x += float(s + int(old));
}
