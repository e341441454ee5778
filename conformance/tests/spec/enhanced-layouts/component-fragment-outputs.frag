// [config]
// expect_result: pass
// glsl_version: 1.40
// require_extensions: GL_ARB_enhanced_layouts GL_ARB_explicit_attrib_location
// [end config]
//
// GLSL 4.40 §4.4.1: variables that share a location may occupy different
// components of it.
#version 140
#extension GL_ARB_explicit_attrib_location: require
#extension GL_ARB_enhanced_layouts: require
layout(location = 0, component = 0) out vec2 rg;
layout(location = 0, component = 2) out float b;
layout(location = 0, component = 3) out float a;
void main()
{
    rg = vec2(0.0);
    b = 1.0;
    a = 1.0;
}
