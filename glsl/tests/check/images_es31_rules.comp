#version 310 es
// GLSL ES 3.10 §4.4.7 and §4.10: image uniforms need a format, read-write
// images need r32f/r32i/r32ui, and ES has no 1D or multisample images.
layout(local_size_x = 1) in;
uniform highp image2D no_format;
layout(rgba8) uniform highp image2D read_write;
layout(r32ui) uniform highp uimage2D counter;
layout(rg32f) readonly uniform highp image2D not_in_es;
void main()
{
    imageAtomicAdd(counter, ivec2(0), 1u);
}
