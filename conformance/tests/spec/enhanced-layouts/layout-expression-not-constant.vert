// [config]
// expect_result: fail
// glsl_version: 1.40
// require_extensions: GL_ARB_enhanced_layouts GL_ARB_explicit_attrib_location
// [end config]
//
// GLSL 4.40 §4.4: the value must be a constant expression; a uniform is not.
#version 140
#extension GL_ARB_explicit_attrib_location: require
#extension GL_ARB_enhanced_layouts: require
uniform int start;
layout(location = start) in vec4 b;
void main()
{
    gl_Position = b;
}
