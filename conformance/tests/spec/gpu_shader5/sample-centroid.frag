// [config]
// expect_result: fail
// glsl_version: 1.50
// require_extensions: GL_ARB_gpu_shader5
// check_link: false
// [end config]
//
// A variable is interpolated at the centroid or per sample, not both.
#version 150
#extension GL_ARB_gpu_shader5 : require
centroid sample in vec4 v;
out vec4 color;
void main() { color = v; }
