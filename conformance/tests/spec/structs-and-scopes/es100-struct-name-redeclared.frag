// [config]
// expect_result: fail
// glsl_version: 1.00
// check_link: false
// [end config]
//
// GLSL ES 1.00 §4.2.7: a struct name and a variable share one namespace in
// a scope; redeclaring the name as a variable is an error.
#version 100
precision mediump float;
struct S { float x; };
float S;
void main() { gl_FragColor = vec4(0.0); }
