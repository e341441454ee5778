// [config]
// expect_result: fail
// glsl_version: 1.30
// require_extensions: GL_ARB_shading_language_include
// dummy_shader_include: True
// [end config]
//
// ARB_shading_language_include, GLSL chapter 3: "#extension
// GL_ARB_shading_language_include : <behavior>" enables #include; without it
// the directive is an error even for a string that exists.
#version 130
#include "/dummy/path_to/shader_include"
void main()
{
}
