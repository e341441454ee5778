// [config]
// expect_result: fail
// glsl_version: 1.50
// require_extensions: GL_ARB_gpu_shader5
// check_link: false
// [end config]
//
// GLSL 4.00 §4.4.1.2: the invocation count may not exceed
// MAX_GEOMETRY_SHADER_INVOCATIONS (32 in rgl).
#version 150
#extension GL_ARB_gpu_shader5 : require
layout(triangles, invocations = 33) in;
layout(triangle_strip, max_vertices = 3) out;
void main() {}
