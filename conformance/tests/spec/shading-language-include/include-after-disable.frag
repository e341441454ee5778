// [config]
// expect_result: fail
// glsl_version: 1.30
// require_extensions: GL_ARB_shading_language_include
// dummy_shader_include: True
// [end config]
//
// ARB_shading_language_include, GLSL chapter 3 with GLSL 1.30 section 3.3:
// "disable" turns the extension's features off again, so the #include after
// it is an error.
#version 130
#extension GL_ARB_shading_language_include : enable
#extension GL_ARB_shading_language_include : disable
#include "/dummy/path_to/shader_include"
void main()
{
}
