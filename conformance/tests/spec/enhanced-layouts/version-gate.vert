// [config]
// expect_result: fail
// glsl_version: 1.40
// [end config]
//
// The enhanced layout qualifiers need GLSL 4.40 or GL_ARB_enhanced_layouts.
#version 140
layout(std140) uniform blk {
    layout(offset = 16) vec4 a;
};
void main()
{
    gl_Position = a;
}
