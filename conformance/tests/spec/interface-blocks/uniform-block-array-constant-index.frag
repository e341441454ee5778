// [config]
// expect_result: pass
// glsl_version: 1.50
// check_link: true
// [end config]
//
// GLSL 1.50 §4.3.7: an array of uniform blocks is indexed with constant
// integral expressions.
#version 150
uniform Colors { vec4 value; } colors[2];
out vec4 c;
const int last = 1;
void main() { c = colors[0].value + colors[last].value; }
