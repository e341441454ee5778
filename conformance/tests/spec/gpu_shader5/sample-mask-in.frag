// [config]
// expect_result: pass
// glsl_version: 1.50
// require_extensions: GL_ARB_gpu_shader5
// check_link: true
// [end config]
//
// GLSL 4.00 §7.1: gl_SampleMaskIn is an array of int in fragment shaders.
#version 150
#extension GL_ARB_gpu_shader5 : require
out vec4 color;
void main() { color = vec4(float(gl_SampleMaskIn[0] & 1)); }
