// [config]
// expect_result: fail
// glsl_version: 1.50
// check_link: false
// [end config]
//
// GLSL 1.50 §4.3.7: vertex shader inputs cannot be declared as blocks.
#version 150
in Attr { vec4 pos; };
void main() { gl_Position = pos; }
