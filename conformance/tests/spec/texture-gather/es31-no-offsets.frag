// [config]
// expect_result: fail
// glsl_version: 3.10 es
// [end config]
//
// GLSL ES 3.10 has no textureGatherOffsets (ES 3.20 / EXT_gpu_shader5 add it).
#version 310 es
precision mediump float;
uniform mediump sampler2D s;
const ivec2 offs[4] = ivec2[4](ivec2(0), ivec2(1), ivec2(2), ivec2(3));
out vec4 color;
void main()
{
    color = textureGatherOffsets(s, vec2(0.5), offs);
}
