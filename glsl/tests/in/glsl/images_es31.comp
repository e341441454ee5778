#version 310 es
// GLSL ES 3.10 images: every image uniform has a format; read-write images
// only with r32f/r32i/r32ui; imageSize is available.
layout(local_size_x = 8, local_size_y = 8) in;
layout(r32ui) uniform highp uimage2D counts;
layout(rgba8, binding = 1) readonly uniform highp image2D src;
layout(rgba16f) writeonly uniform highp image3D dst;
void main()
{
    ivec2 at = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = imageSize(src);
    vec4 texel = imageLoad(src, at % size);
    imageStore(dst, ivec3(at, 0), texel);
    uint old = imageAtomicExchange(counts, at, 7u);
    imageStore(counts, at, uvec4(old + imageLoad(counts, at).x));
}
