#version 450
// GLSL 4.20 §8.12: every image function on 2D, array, cube and buffer images,
// with format and memory qualifiers; a dynamically indexed image array.
layout(local_size_x = 4) in;
layout(rgba8, binding = 1) readonly uniform image2D src;
layout(rgba32f) writeonly uniform image2DArray dst;
layout(r32i) coherent uniform iimageCube counters;
layout(r32ui) uniform uimageBuffer words;
layout(r32f) uniform image1D floats;
writeonly uniform image3D many[3];
uniform int which;

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec4 c = imageLoad(src, p);
    imageStore(dst, ivec3(p, 1), c);
    int old = imageAtomicAdd(counters, ivec3(p, 2), 1);
    old += imageAtomicMin(counters, ivec3(p, 2), -4);
    old += imageAtomicExchange(counters, ivec3(p, 3), old);
    old += imageAtomicCompSwap(counters, ivec3(p, 4), 0, 7);
    uint u = imageAtomicMax(words, p.x, 9u) + imageAtomicXor(words, p.x + 1, 3u);
    float f = imageAtomicExchange(floats, p.x, 0.5);
    ivec2 size = imageSize(src) + imageSize(counters) + ivec2(imageSize(words));
    imageStore(many[which], ivec3(size, old), vec4(f, float(u), 0.0, 1.0));
}
