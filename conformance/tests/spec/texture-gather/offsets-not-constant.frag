// [config]
// expect_result: fail
// glsl_version: 4.00
// [end config]
//
// GLSL 4.00 §8.9.4: the offsets of textureGatherOffsets are constant
// expressions (only textureGatherOffset's offset may vary).
#version 400
uniform sampler2D s;
uniform ivec2 o[4];
out vec4 color;
void main()
{
    color = textureGatherOffsets(s, vec2(0.5), o);
}
