// [config]
// expect_result: fail
// glsl_version: 3.30
// require_extensions: GL_ARB_compute_shader
// [end config]
//
// GLSL 4.30 §4.4.1.1: a local size above gl_MaxComputeWorkGroupSize in any
// dimension is a compile-time error (the z limit is 64).
#version 330
#extension GL_ARB_compute_shader: require
layout(local_size_z = 65) in;
void main()
{
}
