// [config]
// expect_result: pass
// glsl_version: 1.50
// require_extensions: GL_ARB_shader_subroutine
// [end config]
//
// ARB_shader_subroutine on GLSL 1.50: types, functions implementing two
// types, uniforms and arrays of them, and calls with a non-constant index.
#version 150
#extension GL_ARB_shader_subroutine: require
subroutine vec4 a_t(vec4 v);
subroutine vec4 b_t(vec4 v);
subroutine(a_t, b_t) vec4 keep(vec4 v) { return v; }
subroutine(a_t) vec4 flip(vec4 v) { return v.wzyx; }
subroutine uniform a_t first;
subroutine uniform b_t rest[3];
uniform int n;
in vec4 pos;
void main() { gl_Position = rest[n](first(pos)); }
