// [config]
// expect_result: fail
// glsl_version: 1.30
// require_extensions: GL_ARB_shading_language_include
// dummy_shader_include: True
// [end config]
//
// ARB_shading_language_include, GLSL section 3.3: it is a compile-time error
// if a path "exists in the tree, but does not have a string associated with
// it": /dummy/path_to is a location above /dummy/path_to/shader_include.
#version 130
#extension GL_ARB_shading_language_include : enable
#include </dummy/path_to>
void main()
{
}
