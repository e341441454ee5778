// [config]
// expect_result: fail
// glsl_version: 1.30
// require_extensions: GL_ARB_shader_storage_buffer_object
// [end config]
//
// GLSL 4.30 §4.3.7 / ARB_shader_storage_buffer_object: only the last member
// of a shader storage block may be an unsized array.
#version 130
#extension GL_ARB_shader_storage_buffer_object: require
buffer B {
    float values[];
    int count;
};
void main()
{
}
