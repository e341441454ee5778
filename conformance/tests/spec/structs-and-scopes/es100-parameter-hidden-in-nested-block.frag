// [config]
// expect_result: pass
// glsl_version: 1.00
// check_link: false
// [end config]
//
// GLSL ES 1.00 §4.2.2: a nested block opens a new scope in which a
// parameter's name may be redeclared (hiding it).
#version 100
precision mediump float;
float f(float x) { { float x = 2.0; return x; } }
void main() { gl_FragColor = vec4(f(1.0)); }
