// [config]
// expect_result: fail
// glsl_version: 1.40
// require_extensions: GL_ARB_enhanced_layouts GL_ARB_explicit_attrib_location GL_ARB_explicit_uniform_location
// [end config]
//
// GLSL 4.40 §4.4.1: `component` belongs to shader inputs and outputs.
#version 140
#extension GL_ARB_explicit_attrib_location: require
#extension GL_ARB_explicit_uniform_location: require
#extension GL_ARB_enhanced_layouts: require
layout(location = 0, component = 1) uniform float a;
void main()
{
    gl_Position = vec4(a);
}
