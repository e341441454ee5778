// [config]
// expect_result: fail
// glsl_version: 1.00
// check_link: false
// [end config]
//
// GLSL ES 1.00 §6.1: a shader cannot redefine or overload built-in functions.
#version 100
precision mediump float;
float sin(float x) { return x; }
void main() { gl_FragColor = vec4(sin(1.0)); }
