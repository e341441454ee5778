// [config]
// expect_result: fail
// glsl_version: 3.30
// check_link: false
// [end config]
//
// gl_SampleMaskIn needs GLSL 4.00 or ARB_gpu_shader5.
#version 330
out vec4 color;
void main() { color = vec4(float(gl_SampleMaskIn[0])); }
