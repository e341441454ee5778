// [config]
// expect_result: fail
// glsl_version: 1.30
// require_extensions: GL_ARB_shading_language_include
// dummy_shader_include: True
// [end config]
//
// ARB_shading_language_include, GLSL section 3.3: a relative path is looked
// up relative to the search points only; glCompileShader has none, so the
// path "is not found relative to any of the search points".
#version 130
#extension GL_ARB_shading_language_include : enable
#include <shader_include>
void main()
{
}
