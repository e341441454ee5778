// [config]
// expect_result: pass
// glsl_version: 1.50
// require_extensions: GL_ARB_enhanced_layouts
// check_link: true
// [end config]
//
// GLSL 4.40 §4.4.2.1: offsets are per buffer, so equal offsets in different
// buffers do not overlap; a block's xfb_offset places its members one after
// the other, and `layout(xfb_buffer = N) out;` selects the buffer of later
// outputs.
#version 150
#extension GL_ARB_enhanced_layouts: require
layout(xfb_buffer = 1, xfb_stride = 32) out;
layout(xfb_offset = 0) out vec4 a;
layout(xfb_buffer = 2, xfb_offset = 0) out vec4 b;
layout(xfb_buffer = 3, xfb_offset = 0) out blk {
    vec4 c;
    float d;
};
void main()
{
    a = vec4(0.0);
    b = vec4(1.0);
    c = b;
    d = 1.0;
    gl_Position = a;
}
