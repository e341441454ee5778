// [config]
// expect_result: fail
// glsl_version: 4.20
// [end config]
//
// GLSL 4.20 §4.4.6.2: an image that is not writeonly needs a format layout
// qualifier.
#version 420
uniform image2D img;
void main()
{
}
