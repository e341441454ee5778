// [config]
// expect_result: pass
// glsl_version: 1.40
// require_extensions: GL_ARB_enhanced_layouts
// check_link: true
// [end config]
//
// GLSL 4.40 §4.4 (ARB_enhanced_layouts): a layout value may be any integral
// constant expression, including built-in constants and `uint` constants.
#version 140
#extension GL_ARB_enhanced_layouts: require
const int base = 8;
const uint extra = 8u;
layout(std140) uniform blk {
    layout(offset = base * 2) vec4 a;
    layout(offset = int(extra) * 4 + gl_MaxDrawBuffers * 0) vec4 b;
};
void main()
{
    gl_Position = a + b;
}
