// [config]
// expect_result: pass
// glsl_version: 1.50
// require_extensions: GL_ARB_gpu_shader5
// check_link: true
// [end config]
//
// GLSL 4.00 §4.3.6: `sample` on inputs and outputs between stages.
#version 150
#extension GL_ARB_gpu_shader5 : require
in vec4 piglit_vertex;
sample out vec4 a;
flat sample out int b;
void main() { gl_Position = piglit_vertex; a = piglit_vertex; b = 1; }
