#version 430
// GL 4.5 §6.4 robust buffer access, as rgl gives it to every dispatch:
// storage writes outside the bound range are dropped, reads return 0,
// atomics outside it change nothing and return 0. Index `at` comes from a
// uniform so the compiler cannot drop the accesses.
layout(local_size_x = 20) in;
layout(std430, binding = 0) buffer Data { uint data[]; };
layout(std430, binding = 1) buffer Out { uint seen[]; };
uniform int at;
void main() {
    uint i = gl_LocalInvocationIndex;
    int k = int(i) * at;
    data[k] = 7u + i;
    seen[i] = data[k + at] + 100u * atomicAdd(data[k - 2 * at], 1u);
}
