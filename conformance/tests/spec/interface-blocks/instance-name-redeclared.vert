// [config]
// expect_result: fail
// glsl_version: 1.50
// check_link: false
// [end config]
//
// GLSL 1.50 §4.3.7: a block name is in its own namespace, but an instance
// name is a variable name in the global scope; reusing it for a variable is a
// redeclaration error.
#version 150
out Blk { vec4 a; } inst;
float inst;
void main() { gl_Position = vec4(0.0); }
