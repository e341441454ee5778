// [config]
// expect_result: pass
// glsl_version: 4.20
// [end config]
//
// GLSL 4.20 has the 420pack features in core: initializer lists, .length()
// on vectors, qualifiers in any order, and layout(binding) on samplers.
#version 420
layout(binding = 2) uniform sampler2D tex;
in vec2 uv;
flat in int pick;
out vec4 color;
void main()
{
    vec4 weights = { 0.25, 0.25, 0.25, 0.25 };
    color = texture(tex, uv) * weights[pick % weights.length()];
}
