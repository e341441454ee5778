// [config]
// expect_result: fail
// glsl_version: 4.00
// check_link: false
// [end config]
//
// packHalf2x16 arrived with GLSL 4.20 (or ARB_shading_language_packing),
// not 4.00.
#version 400
in vec2 v;
out vec4 color;
void main() { color = vec4(float(packHalf2x16(v))); }
