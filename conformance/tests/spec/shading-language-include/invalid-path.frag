// [config]
// expect_result: fail
// glsl_version: 1.30
// require_extensions: GL_ARB_shading_language_include
// dummy_shader_include: True
// [end config]
//
// ARB_shading_language_include, Appendix A: a path with consecutive forward
// slashes is invalid ("zero length tokens are not allowed"), and GLSL section
// 3.3 makes an invalid path a compile-time error.
#version 130
#extension GL_ARB_shading_language_include : enable
#include "/dummy//path_to/shader_include"
void main()
{
}
