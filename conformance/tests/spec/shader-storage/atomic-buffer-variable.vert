// [config]
// expect_result: pass
// glsl_version: 1.40
// require_extensions: GL_ARB_shader_storage_buffer_object
// [end config]
//
// GLSL 4.30 §8.11: the atomic memory functions take int and uint buffer
// variables, named-block members and array elements included.
#version 140
#extension GL_ARB_shader_storage_buffer_object: require
buffer Counters {
    uint hits[4];
    int total;
} counters;
void main()
{
    uint old = atomicAdd(counters.hits[gl_VertexID % 4], 1u);
    atomicMax(counters.total, int(old));
    atomicCompSwap(counters.hits[0], 0u, old);
    gl_Position = vec4(0.0);
}
