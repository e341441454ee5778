// [config]
// expect_result: fail
// glsl_version: 1.40
// require_extensions: GL_ARB_enhanced_layouts
// [end config]
//
// GLSL 4.40 §4.4.5: `offset` only applies to uniform (and shader storage)
// block members; a default-block uniform cannot have one.
#version 140
#extension GL_ARB_enhanced_layouts: require
layout(offset = 16) uniform vec4 a;
void main()
{
    gl_Position = a;
}
