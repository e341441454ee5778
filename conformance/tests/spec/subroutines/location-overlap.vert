// [config]
// expect_result: fail
// glsl_version: 4.30
// check_link: true
// [end config]
//
// GLSL 4.30 §4.4.3: an array of subroutine uniforms takes one location per
// element; explicit locations may not overlap.
#version 430
subroutine void f_t();
subroutine(f_t) void a() {}
layout(location = 0) subroutine uniform f_t arr[2];
layout(location = 1) subroutine uniform f_t single;
void main() { arr[0](); single(); gl_Position = vec4(0.0); }
