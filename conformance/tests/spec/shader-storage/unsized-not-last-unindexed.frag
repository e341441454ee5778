// [config]
// expect_result: fail
// glsl_version: 1.30
// require_extensions: GL_ARB_shader_storage_buffer_object
// check_link: true
// [end config]
//
// GLSL 4.30 §4.1.9: in desktop GLSL an unsized array that is not the last
// member of a shader storage block is implicitly sized from the constant
// indices used on it. One that is never indexed gets no size, so the shader
// compiles but the program does not link.
#version 130
#extension GL_ARB_shader_storage_buffer_object: require
buffer B {
    float values[];
    int count;
};
void main()
{
    count = 1;
}
