#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
// Every atomic memory function of GLSL 4.30 §8.11 on buffer and shared
// variables, signed and unsigned, on scalars, array elements and vector
// components; the returned old values are stored.
layout(local_size_x = 4, local_size_y = 2) in;

shared int sint[2];
shared uint suint;

layout(std430, binding = 4) buffer Atomics {
    uint u;
    int i;
    uint bits;
    ivec4 lanes;
    uint swap[8];
    uint olds[64];
};

void main()
{
    uint id = gl_LocalInvocationIndex;
    int iid = int(id) - 3;
    uint mask = 1u << id;
    uint nmask = ~mask;
    uint big = id * 3u;
    uint next = id + 1u;
    uint zero = 0u;
    if (id == 0u) {
        sint[0] = 5;
        sint[1] = -5;
        suint = 0u;
    }
    barrier();
    olds[id] = atomicAdd(u, big);
    olds[8u + id] = uint(atomicMin(i, iid));
    olds[16u + id] = uint(atomicMax(lanes[id & 3u], iid));
    olds[24u + id] = atomicAnd(bits, nmask);
    olds[32u + id] = atomicOr(bits, mask);
    olds[40u + id] = atomicXor(u, mask);
    olds[48u + id] = uint(atomicExchange(sint[id & 1u], iid));
    olds[56u + id] = atomicCompSwap(swap[id & 7u], zero, next);
    atomicMin(sint[0], iid);
    atomicMax(suint, big);
    barrier();
    if (id == 7u) {
        lanes.x = sint[0];
        lanes.y = sint[1];
        lanes.z = int(suint);
    }
}
