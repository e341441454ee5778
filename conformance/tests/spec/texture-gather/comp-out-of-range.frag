// [config]
// expect_result: fail
// glsl_version: 4.00
// [end config]
//
// GLSL 4.00 §8.9.4: "the value of comp must be ... 0, 1, 2, or 3".
// llvmpipe (Mesa 22.3) accepts this shader: Mesa does not check the range.
#version 400
uniform sampler2D s;
out vec4 color;
void main()
{
    color = textureGather(s, vec2(0.5), 4);
}
