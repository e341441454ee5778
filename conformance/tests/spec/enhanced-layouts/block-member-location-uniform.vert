// [config]
// expect_result: fail
// glsl_version: 1.40
// require_extensions: GL_ARB_enhanced_layouts
// [end config]
//
// GLSL 4.40 §4.4.1: members of in and out blocks may have locations;
// members of uniform blocks may not.
#version 140
#extension GL_ARB_enhanced_layouts: require
layout(std140) uniform blk {
    layout(location = 1) vec4 a;
};
void main()
{
    gl_Position = a;
}
