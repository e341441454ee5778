// [config]
// expect_result: fail
// glsl_version: 1.50
// check_link: false
// [end config]
//
// GLSL 1.50 §7.1: a fragment shader has no gl_PerVertex output; redeclaring
// one is an error.
#version 150
out gl_PerVertex {
    vec4 gl_Position;
};
void main() { }
