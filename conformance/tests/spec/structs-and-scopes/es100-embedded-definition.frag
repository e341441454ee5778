// [config]
// expect_result: fail
// glsl_version: 1.00
// check_link: false
// [end config]
//
// GLSL ES 1.00 §4.1.8: embedded structure definitions are not supported.
#version 100
precision mediump float;
struct Outer {
    struct Inner { float x; } inner;
    float z;
};
void main() { gl_FragColor = vec4(0.0); }
