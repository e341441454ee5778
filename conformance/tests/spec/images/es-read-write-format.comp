// [config]
// expect_result: fail
// glsl_version: 3.10 es
// [end config]
//
// GLSL ES 3.10 §4.10: "Except for image variables qualified with the format
// qualifiers r32f, r32i, and r32ui, image variables must specify either
// memory qualifier readonly or the memory qualifier writeonly."
#version 310 es
layout(local_size_x = 1) in;
layout(rgba8) uniform highp image2D img;
void main()
{
}
