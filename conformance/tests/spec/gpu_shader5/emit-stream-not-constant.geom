// [config]
// expect_result: fail
// glsl_version: 1.50
// require_extensions: GL_ARB_gpu_shader5
// check_link: false
// [end config]
//
// GLSL 4.00 §8.12: "The argument to stream must be a constant integral
// expression."
#version 150
#extension GL_ARB_gpu_shader5 : require
layout(points) in;
layout(points, max_vertices = 2) out;
uniform int s;
void main() { EmitStreamVertex(s); }
