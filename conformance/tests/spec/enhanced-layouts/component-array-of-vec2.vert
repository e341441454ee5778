// [config]
// expect_result: pass
// glsl_version: 1.50
// require_extensions: GL_ARB_enhanced_layouts GL_ARB_explicit_attrib_location
// [end config]
//
// GLSL 4.40 §4.4.1: "If applied to an array, the component qualifier applies
// to each element": a vec2[2] in components 2-3 of locations 1 and 2.
#version 150
#extension GL_ARB_explicit_attrib_location: require
#extension GL_ARB_enhanced_layouts: require
layout(location = 1, component = 2) in vec2 a[2];
void main()
{
    gl_Position = vec4(a[0], a[1]);
}
