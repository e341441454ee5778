// [config]
// expect_result: fail
// glsl_version: 3.30
// require_extensions: GL_ARB_compute_shader
// [end config]
//
// GLSL 4.30 §8.11: the memory argument of an atomic function must be a buffer
// or shared variable.
#version 330
#extension GL_ARB_compute_shader: require
layout(local_size_x = 1) in;
void main()
{
    int local = 0;
    atomicAdd(local, 1);
}
