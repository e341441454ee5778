// [config]
// expect_result: fail
// glsl_version: 1.50
// check_link: false
// [end config]
//
// gl_InvocationID is an ARB_gpu_shader5 / GLSL 4.00 built-in.
#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
flat out int inv;
void main() { inv = gl_InvocationID; EmitVertex(); }
