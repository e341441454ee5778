// [config]
// expect_result: fail
// glsl_version: 3.30
// require_extensions: GL_ARB_compute_shader
// [end config]
//
// GLSL 4.30 §4.4.1.1: all local size declarations in a shader must give the
// same size; an unwritten dimension is 1, so (2, 1, 1) differs from (2, 2, 1).
#version 330
#extension GL_ARB_compute_shader: require
layout(local_size_x = 2, local_size_y = 2) in;
layout(local_size_x = 2) in;
void main()
{
}
