// [config]
// expect_result: pass
// glsl_version: 1.00
// check_link: false
// [end config]
//
// GLSL ES 1.00 §6.1: user code can overload the built-in functions (a new
// signature) but cannot redefine them; the built-in sin(float) stays visible.
#version 100
precision mediump float;
float sin(int x) { return float(x); }
void main() { gl_FragColor = vec4(sin(1) + sin(0.5)); }
