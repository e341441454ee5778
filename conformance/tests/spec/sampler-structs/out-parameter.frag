// [config]
// expect_result: fail
// glsl_version: 1.30
// check_link: false
// [end config]
//
// GLSL 1.30 §4.1.7: samplers cannot be out or inout function parameters.
#version 130
uniform sampler2D s;
void f(out sampler2D t) { }
void main() { gl_FragColor = texture(s, vec2(0.0)); }
