// [config]
// expect_result: fail
// glsl_version: 3.30
// [end config]
//
// textureGather is a GLSL 4.00 function (or ARB_texture_gather /
// ARB_gpu_shader5): GLSL 3.30 does not have it.
#version 330
uniform sampler2D s;
out vec4 color;
void main()
{
    color = textureGather(s, vec2(0.5));
}
