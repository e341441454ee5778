// [config]
// expect_result: pass
// glsl_version: 1.30
// require_extensions: GL_ARB_shading_language_include
// dummy_shader_include: True
// shader_include_path: /dummy
// [end config]
//
// ARB_shading_language_include, GLSL section 3.3: a relative path is looked
// up relative to the search points of glCompileShaderIncludeARB (here
// /dummy), in double quotes as in angled brackets in the shader's own string.
#version 130
#extension GL_ARB_shading_language_include : enable
#include "path_to/shader_include"
#include <path_to/./shader_include>
void main()
{
}
