// [config]
// expect_result: fail
// glsl_version: 4.20
// [end config]
//
// GLSL 4.20 §4.10: a readonly image cannot be passed to imageStore.
#version 420
layout(rgba8) readonly uniform image2D img;
void main()
{
    imageStore(img, ivec2(0), vec4(1.0));
}
