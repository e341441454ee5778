// [config]
// expect_result: fail
// glsl_version: 1.20
// check_link: false
// [end config]
//
// GLSL 1.20 §4.3.3: calls to user-defined functions are not constant
// expressions.
#version 120
float twice(float x) { return 2.0 * x; }
const float a = twice(1.0);
void main() { gl_FragColor = vec4(a); }
