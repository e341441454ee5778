// [config]
// expect_result: fail
// glsl_version: 1.30
// check_link: false
// [end config]
//
// GLSL 1.30 §4.1.7: samplers are only allowed as uniforms (and function
// parameters); a struct with a sampler member cannot be a global non-uniform.
#version 130
struct S { sampler2D t; };
S global_s;
void main() { gl_FragColor = vec4(0.0); }
