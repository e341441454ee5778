// [config]
// expect_result: fail
// glsl_version: 1.20
// check_link: false
// [end config]
//
// GLSL 1.20 §4.3.3: texture lookup functions are not constant expressions,
// even with constant arguments.
#version 120
uniform sampler2D s;
const vec4 t = texture2D(s, vec2(0.0));
void main() { gl_FragColor = t; }
