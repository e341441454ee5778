// [config]
// expect_result: fail
// glsl_version: 3.30
// check_link: false
// [end config]
//
// `precise` is reserved in GLSL 3.30 and a qualifier only from 4.00 or with
// ARB_gpu_shader5.
#version 330
precise out vec4 color;
void main() { color = vec4(1.0); }
