// [config]
// expect_result: fail
// glsl_version: 1.50
// check_link: false
// [end config]
//
// `invocations` is an ARB_gpu_shader5 / GLSL 4.00 identifier: GLSL 1.50
// without the extension does not have it.
#version 150
layout(triangles, invocations = 2) in;
layout(triangle_strip, max_vertices = 3) out;
void main() {}
