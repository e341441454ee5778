// [config]
// expect_result: fail
// glsl_version: 1.50
// require_extensions: GL_ARB_enhanced_layouts
// [end config]
//
// GLSL 4.40 §4.4.2.1: the transform feedback qualifiers qualify outputs.
#version 150
#extension GL_ARB_enhanced_layouts: require
layout(xfb_offset = 0) in vec4 a;
void main()
{
    gl_Position = a;
}
