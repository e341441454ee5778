// [config]
// expect_result: fail
// glsl_version: 1.40
// require_extensions: GL_ARB_shader_storage_buffer_object GL_NV_shader_atomic_float
// [end config]
//
// GL_NV_shader_atomic_float has no float atomicMin; that overload belongs to
// GL_INTEL_shader_atomic_float_minmax.
#version 140
#extension GL_ARB_shader_storage_buffer_object: require
#extension GL_NV_shader_atomic_float: require
buffer B { float v; };
out vec4 color;
void main()
{
    color = vec4(atomicMin(v, 1.0));
}
