// [config]
// expect_result: fail
// glsl_version: 1.50
// check_link: false
// [end config]
//
// GLSL 1.50 §4.3.7: members of an unnamed block are in the global scope; a
// global variable with a member's name is a redeclaration error.
#version 150
out Blk { vec4 a; };
vec4 a;
void main() { gl_Position = vec4(0.0); }
