// [config]
// expect_result: fail
// glsl_version: 1.30
// require_extensions: GL_ARB_shader_storage_buffer_object
// [end config]
//
// GLSL 4.30 §4.10: a writeonly variable cannot be read; `+=` reads it.
#version 130
#extension GL_ARB_shader_storage_buffer_object: require
buffer B {
    writeonly int count;
};
void main()
{
    count += 1;
}
