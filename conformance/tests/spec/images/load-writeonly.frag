// [config]
// expect_result: fail
// glsl_version: 4.20
// [end config]
//
// GLSL 4.20 §4.10: a writeonly image cannot be passed to imageLoad, whose
// image parameter lacks `writeonly'.
#version 420
layout(rgba8) writeonly uniform image2D img;
out vec4 color;
void main()
{
    color = imageLoad(img, ivec2(0));
}
