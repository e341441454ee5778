// [config]
// expect_result: fail
// glsl_version: 3.30
// require_extensions: GL_ARB_compute_shader
// [end config]
//
// GLSL 4.30 §4.3.8: shared variables are declared at global scope.
#version 330
#extension GL_ARB_compute_shader: require
layout(local_size_x = 1) in;
void main()
{
    shared int counter;
}
