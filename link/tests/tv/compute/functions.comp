#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
// Buffer and shared variables reached from user functions (inlined by the
// pipeline), whole-struct copies between blocks and shared memory, loops over
// a runtime-sized array with a bound read from the buffer, memory barriers.
layout(local_size_x = 3) in;

struct Rec { vec2 p; uint n; };

shared Rec stash[3];

layout(std430, binding = 6) buffer Data {
    uint count;
    Rec recs[4];
    uint words[];
} data;

uint sum_words(uint first, uint n)
{
    uint s = 0u;
    for (uint j = 0u; j < n; j++)
        s += data.words[first + j];
    return s;
}

void bump(inout Rec r, uint by)
{
    r.n += by;
    r.p *= 2.0;
}

void main()
{
    uint id = gl_LocalInvocationID.x;
    stash[id] = data.recs[id];
    memoryBarrierShared();
    barrier();
    uint n = data.count & 7u;
    uint s = sum_words(id * 8u, n);
    bump(stash[(id + 1u) % 3u], s);
    groupMemoryBarrier();
    barrier();
    data.recs[id + 1u] = stash[id];
    memoryBarrier();
    data.words[id] = s + uint(id < n);
}
