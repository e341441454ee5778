// [config]
// expect_result: fail
// glsl_version: 1.40
// require_extensions: GL_ARB_shader_atomic_counters GL_ARB_shader_storage_buffer_object
// [end config]
//
// GLSL 4.30 §4.3.7: block members may not be opaque; a counter inside a
// shader storage block is an error.
#version 140
#extension GL_ARB_shader_atomic_counters: require
#extension GL_ARB_shader_storage_buffer_object: require
buffer B { atomic_uint c; };
out vec4 color;
void main()
{
    color = vec4(0.0);
}
