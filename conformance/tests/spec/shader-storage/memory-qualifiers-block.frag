// [config]
// expect_result: fail
// glsl_version: 1.30
// require_extensions: GL_ARB_shader_storage_buffer_object
// [end config]
//
// GLSL 4.30 §4.10: memory qualifiers on a block apply to all its members; a
// readonly block's members cannot be written.
#version 130
#extension GL_ARB_shader_storage_buffer_object: require
readonly buffer B {
    vec4 data;
};
void main()
{
    data = vec4(1.0);
}
