// [config]
// expect_result: fail
// glsl_version: 1.50
// [end config]
//
// ARB_shader_subroutine: before GLSL 4.00 `subroutine` is a keyword only with
// the extension enabled; without it this is a syntax error.
#version 150
subroutine void f_t();
void main() { gl_Position = vec4(0.0); }
