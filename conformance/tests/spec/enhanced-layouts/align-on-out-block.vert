// [config]
// expect_result: fail
// glsl_version: 1.50
// require_extensions: GL_ARB_enhanced_layouts
// [end config]
//
// GLSL 4.40 §4.4.5: `align` only applies to uniform and shader storage
// blocks and their members.
#version 150
#extension GL_ARB_enhanced_layouts: require
layout(align = 16) out blk {
    vec4 a;
};
void main()
{
    a = vec4(1.0);
    gl_Position = a;
}
