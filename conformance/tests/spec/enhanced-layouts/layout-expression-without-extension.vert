// [config]
// expect_result: fail
// glsl_version: 1.40
// require_extensions: GL_ARB_explicit_attrib_location
// [end config]
//
// Before GLSL 4.40, a layout value must be an integer literal; constant
// expressions need GL_ARB_enhanced_layouts.
#version 140
#extension GL_ARB_explicit_attrib_location: require
const int start = 1;
layout(location = start + 1) in vec4 b;
void main()
{
    gl_Position = b;
}
