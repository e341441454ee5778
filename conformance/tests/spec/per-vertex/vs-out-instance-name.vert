// [config]
// expect_result: fail
// glsl_version: 1.50
// check_link: false
// [end config]
//
// GLSL 4.10 §7.1: the output gl_PerVertex has no instance name, so a
// redeclaration cannot add one.
#version 150
out gl_PerVertex {
    vec4 gl_Position;
} outputs;
void main() { outputs.gl_Position = vec4(0.0); }
