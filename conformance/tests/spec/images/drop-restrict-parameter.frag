// [config]
// expect_result: pass
// glsl_version: 4.20
// [end config]
//
// GLSL 4.20 §4.10: only `restrict' may be taken away from an argument.
#version 420
layout(r32ui) restrict uniform uimage2D img;
uint bump(uimage2D target)
{
    return imageAtomicAdd(target, ivec2(0), 1u);
}
void main()
{
    bump(img);
}
