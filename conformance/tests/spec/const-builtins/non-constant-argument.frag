// [config]
// expect_result: fail
// glsl_version: 1.20
// check_link: false
// [end config]
//
// GLSL 1.20 §4.3.3: a built-in call is a constant expression only when all
// of its arguments are.
#version 120
uniform float u;
const float a = sin(u);
void main() { gl_FragColor = vec4(a); }
