// [config]
// expect_result: fail
// glsl_version: 3.10 es
// [end config]
//
// GLSL ES 3.10 §8.9.3: the offset of textureGatherOffset is a constant
// expression (only ES 3.20 / EXT_gpu_shader5 relax it).
#version 310 es
precision mediump float;
uniform mediump sampler2D s;
uniform ivec2 o;
out vec4 color;
void main()
{
    color = textureGatherOffset(s, vec2(0.5), o);
}
