// [config]
// expect_result: fail
// glsl_version: 1.30
// require_extensions: GL_ARB_shader_storage_buffer_object
// [end config]
//
// GLSL 4.30 §4.1.9: only the runtime-sized last member of a shader storage
// block may be indexed with a non-constant expression; an implicitly sized
// member that is not last is sized from constant indices. A member of an
// unnamed block indexed with a variable is a compile error (as in Mesa; through
// a block instance the program fails to link instead).
#version 130
#extension GL_ARB_shader_storage_buffer_object: require
buffer B {
    float values[];
    int count;
    float tail[];
};
void main()
{
    count = int(values[count]);
}
