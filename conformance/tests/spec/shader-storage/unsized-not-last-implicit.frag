// [config]
// expect_result: pass
// glsl_version: 1.30
// require_extensions: GL_ARB_shader_storage_buffer_object
// check_link: true
// [end config]
//
// GLSL 4.30 §4.1.9: in desktop GLSL an unsized array that is not the last
// member of a shader storage block takes one more element than the highest
// constant index used on it (here 3).
#version 130
#extension GL_ARB_shader_storage_buffer_object: require
buffer B {
    float values[];
    int count;
    float tail[];
};
void main()
{
    count = int(values[0] + values[2]) + int(tail[count]);
}
