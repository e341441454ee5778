// [config]
// expect_result: fail
// glsl_version: 1.50
// require_extensions: GL_ARB_gpu_shader5
// check_link: true
// [end config]
//
// The stream argument must name one of the MAX_VERTEX_STREAMS (4) streams
// (rgl reports it when compiling, Mesa when linking).
#version 150
#extension GL_ARB_gpu_shader5 : require
layout(points) in;
layout(points, max_vertices = 2) out;
void main() { EndStreamPrimitive(4); }
