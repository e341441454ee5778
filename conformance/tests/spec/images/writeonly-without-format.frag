// [config]
// expect_result: pass
// glsl_version: 4.20
// [end config]
//
// GLSL 4.20 §4.4.6.2: only images that may be read need a format; a
// writeonly image is stored to in the format of the bound image unit.
#version 420
writeonly uniform image2D img;
void main()
{
    imageStore(img, ivec2(1, 2), vec4(0.5));
}
