// [config]
// expect_result: fail
// glsl_version: 3.00
// check_link: false
// [end config]
//
// GLSL ES 3.00 §6.1: a shader cannot redefine or overload built-in functions.
#version 300 es
precision mediump float;
out vec4 color;
float sin(int x) { return float(x); }
void main() { color = vec4(sin(1)); }
