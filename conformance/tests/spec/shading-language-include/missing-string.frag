// [config]
// expect_result: fail
// glsl_version: 1.30
// require_extensions: GL_ARB_shading_language_include
// dummy_shader_include: True
// [end config]
//
// ARB_shading_language_include, GLSL section 3.3: "It is a compile-time
// error if a path starting with a forward slash ... does not exist in the
// tree" (only /dummy/path_to/shader_include does here).
#version 130
#extension GL_ARB_shading_language_include : enable
#include "/dummy/path_to/no_such_string"
void main()
{
}
