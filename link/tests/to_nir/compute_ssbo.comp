#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
// GLSL 4.30 §4.3.7 buffer variables (named and unnamed blocks, block arrays, std140
// and std430, memory qualifiers), §8.11 atomic memory functions, §8.16
// memoryBarrier*(). Atomic arguments are variables: the front end's built-in
// expansion drops kept calls whose arguments need temporaries.
layout(local_size_x = 4) in;

struct Pair { ivec2 a; bool flag; };

layout(std430, binding = 2) coherent buffer Counters {
    uint count;
    int lowest;
    uint bits;
    ivec4 lanes;
    Pair pairs[2];
};

layout(std140, binding = 3) readonly buffer Params {
    mat3 m;
    vec3 scale;
} params;

layout(std430, binding = 4) buffer Outs {
    vec4 v;
    uint olds[4];
    float tail[];
} outs[2];

void main()
{
    uint id = gl_LocalInvocationID.x;
    int iid = int(id) - 2;
    uint clear = ~(1u << id);
    uint set = 16u << id;
    uint old = atomicAdd(count, 1u);
    atomicMin(lowest, iid);
    atomicMax(lanes[3], iid);
    atomicAnd(bits, clear);
    atomicOr(bits, set);
    atomicXor(bits, 256u);
    int iold = int(old);
    int prev = atomicExchange(lanes[id], iold);
    uint next = old + 1u;
    uint swapped = atomicCompSwap(outs[1].olds[id], 0u, next);
    outs[0].olds[id] = old + swapped + uint(prev);
    outs[id & 1u].v = vec4(params.m * params.scale, 1.0);
    pairs[id & 1u].flag = pairs[0].a.x > 0;
    outs[1].tail[id] = params.m[1][2];
    memoryBarrier();
    memoryBarrierBuffer();
    memoryBarrierAtomicCounter();
    memoryBarrierImage();
}
