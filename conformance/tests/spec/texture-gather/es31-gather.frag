// [config]
// expect_result: pass
// glsl_version: 3.10 es
// [end config]
//
// GLSL ES 3.10 §8.9.3: textureGather (with comp and the shadow forms) on the
// 2D, 2D array and cube samplers, and textureGatherOffset with a constant
// offset.
#version 310 es
precision mediump float;
uniform mediump sampler2D s2;
uniform mediump isampler2DArray ia;
uniform mediump usamplerCube uc;
uniform mediump sampler2DShadow ss;
uniform mediump samplerCubeShadow cs;
out vec4 color;
void main()
{
    color = textureGather(s2, vec2(0.5)) + textureGather(s2, vec2(0.5), 2)
        + vec4(textureGather(ia, vec3(0.5), 1)) + vec4(textureGather(uc, vec3(1.0)))
        + textureGather(ss, vec2(0.5), 0.5) + textureGather(cs, vec3(1.0), 0.5)
        + textureGatherOffset(s2, vec2(0.5), ivec2(1, -2), 3)
        + textureGatherOffset(ss, vec2(0.5), 0.5, ivec2(-1, 0));
}
