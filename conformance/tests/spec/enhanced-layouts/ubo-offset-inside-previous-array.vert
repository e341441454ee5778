// [config]
// expect_result: fail
// glsl_version: 1.40
// require_extensions: GL_ARB_enhanced_layouts
// [end config]
//
// GLSL 4.40 §4.4.5: "It is a compile-time error to specify an offset that is
// smaller than the offset of the previous member in the block or that lies
// within the previous member of the block." float[3] takes 48 bytes (a
// 16-byte std140 stride), so offset 32 lies inside it.
#version 140
#extension GL_ARB_enhanced_layouts: require
layout(std140) uniform blk {
    float a[3];
    layout(offset = 32) float b;
};
void main()
{
    gl_Position = vec4(a[0] + b);
}
