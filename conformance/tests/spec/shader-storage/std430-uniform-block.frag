// [config]
// expect_result: fail
// glsl_version: 1.40
// require_extensions: GL_ARB_shader_storage_buffer_object
// [end config]
//
// ARB_shader_storage_buffer_object: "The std430 qualifier is supported only
// for shader storage blocks".
#version 140
#extension GL_ARB_shader_storage_buffer_object: require
layout(std430) uniform U {
    vec4 v;
};
out vec4 color;
void main()
{
    color = v;
}
