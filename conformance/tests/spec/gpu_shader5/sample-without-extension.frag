// [config]
// expect_result: fail
// glsl_version: 1.50
// check_link: false
// [end config]
//
// `sample` needs GLSL 4.00 or ARB_gpu_shader5.
#version 150
sample in vec4 v;
out vec4 color;
void main() { color = v; }
