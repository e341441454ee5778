// [config]
// expect_result: fail
// glsl_version: 1.30
// check_link: false
// [end config]
//
// GLSL 1.30 §4.1.7: arrays of samplers (here inside a struct array) can only
// be indexed with integral constant expressions before GLSL 4.00.
#version 130
struct S { sampler2D t; };
uniform S arr[2];
uniform int i;
void main() { gl_FragColor = texture(arr[i].t, vec2(0.0)); }
