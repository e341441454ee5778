#version 430
// GLSL 4.20 §8.12 through the whole pipeline: loads, stores, atomics and
// imageSize on an image, an image array indexed by a computed value, and a
// function taking an image; the results also go to a storage buffer.
layout(local_size_x = 4, local_size_y = 2) in;
layout(r32ui) coherent uniform uimage2DArray counters;
layout(rgba32f) uniform image2D planes[2];
layout(std430, binding = 0) buffer Out { uint sizes[4]; uint olds[8]; };

uint bump(coherent uimage2DArray img, ivec3 p, uint by)
{
    return imageAtomicAdd(img, p, by);
}

void main()
{
    ivec2 p = ivec2(gl_LocalInvocationID.xy);
    uint i = gl_LocalInvocationIndex;
    olds[i] = bump(counters, ivec3(p, 1), i + 1u);
    imageAtomicMax(counters, ivec3(p.yx, 2), i * 3u);
    imageAtomicCompSwap(counters, ivec3(0, 0, 3), 0u, i);
    vec4 t = imageLoad(planes[int(i) & 1], p);
    imageStore(planes[1 - (int(i) & 1)], p + ivec2(0, 2), t + vec4(1.0));
    if (i == 0u) {
        ivec3 s = imageSize(counters);
        sizes[0] = uint(s.x);
        sizes[1] = uint(s.y);
        sizes[2] = uint(s.z);
        sizes[3] = uint(imageSize(planes[1]).x);
    }
}
