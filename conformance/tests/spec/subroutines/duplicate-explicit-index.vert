// [config]
// expect_result: fail
// glsl_version: 4.30
// check_link: true
// [end config]
//
// GLSL 4.30 §4.4.3: two subroutine functions of a stage may not share an
// explicit index.
#version 430
subroutine void f_t();
layout(index = 1) subroutine(f_t) void a() {}
layout(index = 1) subroutine(f_t) void b() {}
void main() { gl_Position = vec4(0.0); }
