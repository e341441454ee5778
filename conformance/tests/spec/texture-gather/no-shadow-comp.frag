// [config]
// expect_result: fail
// glsl_version: 4.00
// [end config]
//
// GLSL 4.00 §8.9.4: the shadow forms take refZ and no comp.
#version 400
uniform sampler2DShadow s;
out vec4 color;
void main()
{
    color = textureGather(s, vec2(0.5), 0.5, 1);
}
