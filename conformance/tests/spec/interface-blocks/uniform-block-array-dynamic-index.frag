// [config]
// expect_result: fail
// glsl_version: 1.50
// check_link: false
// [end config]
//
// GLSL 1.50 §4.3.7: "arrays of uniform blocks can only be indexed with a
// constant integral expression" (dynamically uniform indexing came with
// GLSL 4.00).
#version 150
uniform Colors { vec4 value; } colors[2];
uniform int i;
out vec4 c;
void main() { c = colors[i].value; }
