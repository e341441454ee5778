// [config]
// expect_result: fail
// glsl_version: 4.20
// [end config]
//
// GLSL 4.20 §4.10: "variables qualified with coherent, volatile, readonly,
// or writeonly may not be passed to functions whose formal parameters lack
// such qualifiers".
#version 420
layout(r32ui) coherent uniform uimage2D img;
uint bump(uimage2D target)
{
    return imageAtomicAdd(target, ivec2(0), 1u);
}
void main()
{
    bump(img);
}
