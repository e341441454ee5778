// [config]
// expect_result: fail
// glsl_version: 4.00
// [end config]
//
// GLSL 4.00 §6.1.2: an array of subroutine uniforms is called through one
// element: an array is not a function. llvmpipe (Mesa 22.3) accepts the
// call.
#version 400
subroutine void f_t();
subroutine(f_t) void a() {}
subroutine uniform f_t arr[2];
void main() { arr(); gl_Position = vec4(0.0); }
