// [config]
// expect_result: fail
// glsl_version: 4.00
// check_link: false
// [end config]
//
// `stream` is a geometry shader layout identifier; a vertex shader output
// cannot take it.
#version 400
layout(stream = 0) out vec4 x;
void main() { gl_Position = vec4(0.0); x = vec4(1.0); }
