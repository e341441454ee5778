// [config]
// expect_result: fail
// glsl_version: 1.40
// require_extensions: GL_ARB_shader_storage_buffer_object GL_ARB_enhanced_layouts
// [end config]
//
// GLSL 4.30 §7.6.2.2 rule 4: in std140 an array of floats has a stride of 16,
// so a 4-element array ends at 64 and `after` at offset 16 overlaps it.
#version 140
#extension GL_ARB_shader_storage_buffer_object: require
#extension GL_ARB_enhanced_layouts: require
layout(std140) buffer B {
    layout(offset = 0) float a[4];
    layout(offset = 16) float after;
};
void main()
{
    gl_Position = vec4(after);
}
