// [config]
// expect_result: fail
// glsl_version: 1.50
// check_link: false
// [end config]
//
// GLSL 1.50 §4.3.7: fragment shader outputs cannot be declared as blocks.
#version 150
out Frag { vec4 color; };
void main() { color = vec4(1.0); }
