#version 430
// GLSL 4.20 §4.4.6.2 and §4.10: the format and memory qualifier rules of
// image variables and of image arguments.
layout(rgba32f) uniform image2D ok;
layout(r32i) uniform image2D wrong_kind;
uniform image2D no_format;
writeonly uniform image2D write_only_without_format;
layout(rgba32f) uniform vec4 not_an_image;
readonly uniform float not_memory;
image2D not_uniform;
layout(rgba8) readonly uniform image2D ro;
layout(rgba8) writeonly uniform image2D wo;
layout(r32ui) readonly uniform uimage2D counter;

void take(image2D img) {}

void main()
{
    imageStore(ro, ivec2(0), vec4(1.0));
    vec4 v = imageLoad(wo, ivec2(0));
    imageAtomicAdd(counter, ivec2(0), 1u);
    take(ro);
    ivec2 size = imageSize(ro) + imageSize(wo);
    image2D copy = ok;
}
