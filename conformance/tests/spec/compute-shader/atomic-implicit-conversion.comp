// [config]
// expect_result: fail
// glsl_version: 3.30
// require_extensions: GL_ARB_compute_shader
// [end config]
//
// GLSL 4.30 §8.11 / §6.1: the memory argument is `inout`, which allows no
// implicit conversion: an int variable does not match the uint overload.
#version 330
#extension GL_ARB_compute_shader: require
layout(local_size_x = 1) in;
shared int counter;
void main()
{
    atomicAdd(counter, 1u);
}
