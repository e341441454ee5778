// [config]
// expect_result: fail
// glsl_version: 4.00
// [end config]
//
// GLSL 4.00 §8.9.4: "comp ... must be a constant integer expression".
#version 400
uniform sampler2D s;
uniform int c;
out vec4 color;
void main()
{
    color = textureGather(s, vec2(0.5), c);
}
