// [config]
// expect_result: fail
// glsl_version: 1.00
// check_link: false
// [end config]
//
// GLSL ES 1.00 §4.2.2: a function's parameters and its body's outermost
// statements are in the same scope, so redeclaring a parameter there is an
// error.
#version 100
precision mediump float;
float f(float x) { float x = 2.0; return x; }
void main() { gl_FragColor = vec4(f(1.0)); }
