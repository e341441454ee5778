// [config]
// expect_result: fail
// glsl_version: 1.50
// require_extensions: GL_ARB_enhanced_layouts
// [end config]
//
// GLSL 4.40 §4.4.2.1: fragment shader outputs are not captured.
#version 150
#extension GL_ARB_enhanced_layouts: require
layout(xfb_offset = 0) out vec4 color;
void main()
{
    color = vec4(1.0);
}
