// [config]
// expect_result: fail
// glsl_version: 4.00
// [end config]
//
// GLSL 4.00 §6.1.2: a subroutine type is not a function; calling it by name
// is an error.
#version 400
subroutine vec4 a_t(vec4 v);
subroutine(a_t) vec4 keep(vec4 v) { return v; }
in vec4 pos;
void main() { gl_Position = a_t(pos); }
