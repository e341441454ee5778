// [config]
// expect_result: fail
// glsl_version: 3.30
// check_link: false
// [end config]
//
// fma is an ARB_gpu_shader5 / GLSL 4.00 function.
#version 330
in vec3 v;
out vec4 color;
void main() { color = vec4(fma(v.x, v.y, v.z)); }
