// [config]
// expect_result: fail
// glsl_version: 1.50
// require_extensions: GL_ARB_gpu_shader5
// check_link: false
// [end config]
//
// GLSL 4.00 §4.4.1.2: "It is a compile-time error if the invocation count
// is ... less than or equal to zero".
#version 150
#extension GL_ARB_gpu_shader5 : require
layout(triangles, invocations = 0) in;
layout(triangle_strip, max_vertices = 3) out;
void main() {}
