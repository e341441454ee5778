// [config]
// expect_result: fail
// glsl_version: 1.50
// require_extensions: GL_ARB_gpu_shader5
// check_link: false
// [end config]
//
// `stream` qualifies geometry shader outputs only: an input default is an
// error (GLSL 4.00 §4.4.1.2 lists the input layout identifiers).
#version 150
#extension GL_ARB_gpu_shader5 : require
layout(points, stream = 1) in;
layout(points, max_vertices = 1) out;
void main() {}
