// [config]
// expect_result: fail
// glsl_version: 3.30
// require_extensions: GL_ARB_compute_shader
// [end config]
//
// GLSL 4.30 §4.4.1.1: local_size_* belongs on the `in` qualifier-only
// declaration of a compute shader, not on a variable.
#version 330
#extension GL_ARB_compute_shader: require
layout(local_size_x = 1) in;
layout(local_size_x = 2) uniform int u;
void main()
{
}
