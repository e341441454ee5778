// [config]
// expect_result: fail
// glsl_version: 3.30
// require_extensions: GL_ARB_compute_shader GL_NV_shader_atomic_float
// [end config]
//
// The float atomics keep the GLSL 4.30 §8.11 rule: the memory argument is a
// buffer or shared variable.
#version 330
#extension GL_ARB_compute_shader: require
#extension GL_NV_shader_atomic_float: require
layout(local_size_x = 1) in;
void main()
{
    float local = 0.0;
    atomicAdd(local, 1.0);
}
