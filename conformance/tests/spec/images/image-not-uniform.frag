// [config]
// expect_result: fail
// glsl_version: 4.20
// [end config]
//
// GLSL 4.20 §4.1.7: images are opaque: only uniforms and function
// parameters.
#version 420
layout(rgba8) in image2D img;
void main()
{
}
