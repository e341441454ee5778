// [config]
// expect_result: fail
// glsl_version: 3.30
// require_extensions: GL_ARB_compute_shader
// check_link: true
// [end config]
//
// GL 4.3 §7.3: linking a compute shader without a fixed local size fails.
#version 330
#extension GL_ARB_compute_shader: require
void main()
{
}
