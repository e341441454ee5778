// [config]
// expect_result: fail
// glsl_version: 4.00
// [end config]
//
// GLSL 4.00 §8.9.4 gathers from 2D, 2D array, cube, cube array and
// rectangle samplers only: there is no textureGather over sampler3D.
#version 400
uniform sampler3D s;
out vec4 color;
void main()
{
    color = textureGather(s, vec3(0.5));
}
