// [config]
// expect_result: fail
// glsl_version: 1.30
// check_link: false
// [end config]
//
// GLSL 1.30 §7.1: an index past the redeclared size is an error when it is a
// constant.
#version 130
out float gl_ClipDistance[2];
void main() { gl_Position = vec4(0.0); gl_ClipDistance[2] = 1.0; }
