// [config]
// expect_result: fail
// glsl_version: 1.20
// check_link: false
// [end config]
//
// GLSL 1.20 §4.3.3 with §4.1.9: the folded value is used; an array sized by
// a constant built-in call that folds to zero is an error.
#version 120
float arr[int(floor(0.5))];
void main() { gl_FragColor = vec4(0.0); }
