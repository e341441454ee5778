// [config]
// expect_result: fail
// glsl_version: 1.30
// check_link: false
// [end config]
//
// GLSL 1.30 §7.1 and §4.1.9: an implicitly sized gl_ClipDistance cannot be
// assigned as a whole or indexed with a non-constant before it has a size.
#version 130
uniform int i;
void main() { gl_Position = vec4(0.0); gl_ClipDistance[i] = 1.0; }
