// [config]
// expect_result: pass
// glsl_version: 1.40
// require_extensions: GL_ARB_enhanced_layouts
// [end config]
//
// GLSL 4.40 §4.4.5: `offset` needs a std140 (or std430) block; a default
// `layout(std140) uniform;` makes the block std140.
#version 140
#extension GL_ARB_enhanced_layouts: require
layout(std140) uniform;
uniform blk {
    layout(offset = 0) vec4 a;
    layout(offset = 32) vec4 b;
};
void main()
{
    gl_Position = a + b;
}
