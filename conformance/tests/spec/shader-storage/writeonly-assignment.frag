// [config]
// expect_result: pass
// glsl_version: 1.30
// require_extensions: GL_ARB_shader_storage_buffer_object
// [end config]
//
// GLSL 4.30 §4.10: a writeonly buffer variable can be written, a readonly one
// read; an unsized last member is indexed with any integer expression
// (ARB_shader_storage_buffer_object).
#version 130
#extension GL_ARB_shader_storage_buffer_object: require
layout(std430, binding = 3) buffer B {
    readonly int n;
    writeonly float results[];
};
void main()
{
    results[n] = float(n);
}
