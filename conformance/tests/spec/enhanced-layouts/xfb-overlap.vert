// [config]
// expect_result: fail
// glsl_version: 1.50
// require_extensions: GL_ARB_enhanced_layouts
// [end config]
//
// GLSL 4.40 §4.4.2.1: no two captured outputs may overlap in one buffer:
// b (bytes 8-23) overlaps a (bytes 0-15).
#version 150
#extension GL_ARB_enhanced_layouts: require
layout(xfb_offset = 0) out vec4 a;
layout(xfb_offset = 8) out vec4 b;
void main()
{
    a = vec4(0.0);
    b = vec4(1.0);
    gl_Position = a;
}
