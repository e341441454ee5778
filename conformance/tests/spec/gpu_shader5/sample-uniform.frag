// [config]
// expect_result: fail
// glsl_version: 1.50
// require_extensions: GL_ARB_gpu_shader5
// check_link: false
// [end config]
//
// GLSL 4.00 §4.3.6: `sample` is for the interfaces between stages; a
// uniform cannot take it.
#version 150
#extension GL_ARB_gpu_shader5 : require
sample uniform vec4 u;
out vec4 color;
void main() { color = u; }
