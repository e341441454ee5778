#version 420
#extension GL_NV_shader_atomic_float : require
// GL_NV_shader_atomic_float: imageAtomicAdd and imageAtomicExchange on float
// images; the other atomics stay integer-only.
layout(r32f) uniform image2D img;
void main()
{
    float a = imageAtomicAdd(img, ivec2(0), 1.0);
    float b = imageAtomicExchange(img, ivec2(1), a);
    imageAtomicMin(img, ivec2(2), b);
}
