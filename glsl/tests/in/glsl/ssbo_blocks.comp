#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
// Buffer variables in the HIR: unnamed and named shader storage blocks,
// memory qualifiers, an unsized last member, atomics on buffer variables.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data {
    coherent uint hits;
    float values[];
};
layout(std430, binding = 1) writeonly buffer Out {
    vec2 pairs[4];
} result;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    atomicAdd(hits, 1u);
    result.pairs[i % 4u] = vec2(values[i], 0.0);
}
