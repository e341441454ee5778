// [config]
// expect_result: fail
// glsl_version: 1.40
// require_extensions: GL_ARB_enhanced_layouts
// [end config]
//
// GLSL 4.40 §4.4.5: `offset` qualifies block members only, not a block.
#version 140
#extension GL_ARB_enhanced_layouts: require
layout(std140, offset = 16) uniform blk {
    vec4 a;
};
void main()
{
    gl_Position = a;
}
