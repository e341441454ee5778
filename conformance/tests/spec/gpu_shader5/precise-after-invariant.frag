// [config]
// expect_result: fail
// glsl_version: 1.50
// require_extensions: GL_ARB_gpu_shader5
// check_link: false
// [end config]
//
// GLSL 4.00 §4.7: "precise" must come before "invariant".
#version 150
#extension GL_ARB_gpu_shader5 : require
invariant precise out vec4 color;
void main() { color = vec4(1.0); }
