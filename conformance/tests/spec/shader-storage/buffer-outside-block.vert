// [config]
// expect_result: fail
// glsl_version: 1.40
// require_extensions: GL_ARB_shader_storage_buffer_object
// [end config]
//
// ARB_shader_storage_buffer_object: "It is illegal to declare buffer
// variables at global scope (outside a block)."
#version 140
#extension GL_ARB_shader_storage_buffer_object: require
buffer vec4 v;
void main()
{
    gl_Position = v;
}
