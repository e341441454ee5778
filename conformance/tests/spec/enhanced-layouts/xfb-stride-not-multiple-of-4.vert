// [config]
// expect_result: fail
// glsl_version: 1.50
// require_extensions: GL_ARB_enhanced_layouts
// [end config]
//
// GLSL 4.40 §4.4.2.1: without double-precision outputs a buffer's stride is
// a multiple of 4.
#version 150
#extension GL_ARB_enhanced_layouts: require
layout(xfb_stride = 18) out vec4 a;
void main()
{
    a = vec4(0.0);
    gl_Position = a;
}
