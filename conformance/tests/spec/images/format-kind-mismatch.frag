// [config]
// expect_result: fail
// glsl_version: 4.20
// [end config]
//
// GLSL 4.20 §4.4.6.2: a format layout qualifier must match the image's
// base type: integer formats go with iimage* types only.
#version 420
layout(rgba32i) uniform image2D img;
void main()
{
}
