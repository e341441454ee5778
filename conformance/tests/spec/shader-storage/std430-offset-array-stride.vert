// [config]
// expect_result: pass
// glsl_version: 1.40
// require_extensions: GL_ARB_shader_storage_buffer_object GL_ARB_enhanced_layouts
// [end config]
//
// GLSL 4.30 §7.6.2.2: in std430 an array of floats has a stride of 4 (not 16
// as in std140), so `after` may start right after the 4-element array, at 16.
#version 140
#extension GL_ARB_shader_storage_buffer_object: require
#extension GL_ARB_enhanced_layouts: require
layout(std430) buffer B {
    layout(offset = 0) float a[4];
    layout(offset = 16) float after;
};
void main()
{
    gl_Position = vec4(after);
}
