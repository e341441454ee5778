// [config]
// expect_result: fail
// glsl_version: 3.30
// require_extensions: GL_ARB_compute_shader
// [end config]
//
// GLSL 4.30 §4.3.8: "Variables declared as shared may not have initializers".
#version 330
#extension GL_ARB_compute_shader: require
layout(local_size_x = 1) in;
shared int counter = 0;
void main()
{
}
