// [config]
// expect_result: fail
// glsl_version: 1.00
// check_link: false
// [end config]
//
// GLSL ES 1.00 §4.1.8: struct members cannot have initializers.
#version 100
precision mediump float;
struct S { float x = 1.0; };
void main() { gl_FragColor = vec4(0.0); }
