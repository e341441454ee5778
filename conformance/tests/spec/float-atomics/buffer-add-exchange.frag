// [config]
// expect_result: pass
// glsl_version: 1.40
// require_extensions: GL_ARB_shader_storage_buffer_object GL_NV_shader_atomic_float
// [end config]
//
// GL_NV_shader_atomic_float: atomicAdd and atomicExchange take float buffer
// variables and return the old value.
#version 140
#extension GL_ARB_shader_storage_buffer_object: require
#extension GL_NV_shader_atomic_float: require
buffer B { float sum; float last; };
out vec4 color;
void main()
{
    float before = atomicAdd(sum, 0.5);
    color = vec4(before, atomicExchange(last, before), 0.0, 1.0);
}
