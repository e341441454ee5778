// [config]
// expect_result: fail
// glsl_version: 1.50
// check_link: false
// [end config]
//
// GLSL 4.10 §7.1: the redeclaration must come before any use of a member of
// the block; gl_Position is written by a function defined above it.
#version 150
void f() { gl_Position = vec4(1.0); }
out gl_PerVertex {
    vec4 gl_Position;
};
void main() { f(); }
