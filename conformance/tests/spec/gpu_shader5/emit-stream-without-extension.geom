// [config]
// expect_result: fail
// glsl_version: 1.50
// check_link: false
// [end config]
//
// EmitStreamVertex is an ARB_gpu_shader5 / GLSL 4.00 function.
#version 150
layout(points) in;
layout(points, max_vertices = 1) out;
void main() { EmitStreamVertex(0); }
