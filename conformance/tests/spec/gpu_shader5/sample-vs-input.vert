// [config]
// expect_result: fail
// glsl_version: 1.50
// require_extensions: GL_ARB_gpu_shader5
// check_link: false
// [end config]
//
// Vertex shader inputs are not between stages: no `sample`.
#version 150
#extension GL_ARB_gpu_shader5 : require
sample in vec4 v;
void main() { gl_Position = v; }
