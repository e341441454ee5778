// [config]
// expect_result: fail
// glsl_version: 1.50
// check_link: false
// [end config]
//
// GLSL 4.10 §7.1: only built-in members may appear in a gl_PerVertex
// redeclaration.
#version 150
out gl_PerVertex {
    vec4 gl_Position;
    vec4 extra;
};
void main() { gl_Position = vec4(0.0); }
