// [config]
// expect_result: fail
// glsl_version: 1.30
// require_extensions: GL_ARB_shader_storage_buffer_object
// check_link: true
// [end config]
//
// GLSL 4.30 §4.1.9: an implicitly sized member of a shader storage block
// takes its size from constant indices. Indexed only with a variable through
// the block instance, it compiles (as in Mesa) but has no size, so the program
// does not link.
#version 130
#extension GL_ARB_shader_storage_buffer_object: require
buffer B {
    float values[];
    int count;
    float tail[];
} b;
void main()
{
    b.count = int(b.values[b.count]);
}
