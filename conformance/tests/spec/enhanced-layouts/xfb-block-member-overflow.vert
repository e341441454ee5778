// [config]
// expect_result: fail
// glsl_version: 1.50
// require_extensions: GL_ARB_enhanced_layouts
// [end config]
//
// GLSL 4.40 §4.4.2.1: members of a block with xfb_offset follow each other:
// d lands at bytes 16-19, beyond the buffer's stride of 16.
#version 150
#extension GL_ARB_enhanced_layouts: require
layout(xfb_offset = 0, xfb_stride = 16) out blk {
    vec4 c;
    float d;
};
void main()
{
    c = vec4(1.0);
    d = 1.0;
    gl_Position = c;
}
