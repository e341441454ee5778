#version 430
// GL 4.3 §19 / GLSL 4.30 §8.16: the shared-memory tree reduction, with the
// barrier at the end of each halving step of a loop, then one atomicAdd
// per workgroup (GLSL 4.30 §8.11) into a total that every workgroup adds
// to. 96 invocations: six batches, the last strides cross batches.
layout(local_size_x = 96) in;
layout(std430, binding = 0) buffer Data { uint data[]; };
layout(std430, binding = 1) buffer Result { uint total; uint sums[]; };
shared uint partial[128];
void main() {
    uint i = gl_LocalInvocationIndex;
    partial[i] = data[gl_GlobalInvocationID.x];
    if (i < 32u)
        partial[96u + i] = 0u;
    barrier();
    for (uint s = 64u; s > 0u; s >>= 1u) {
        if (i < s)
            partial[i] += partial[i + s];
        barrier();
    }
    if (i == 0u) {
        sums[gl_WorkGroupID.x] = partial[0];
        atomicAdd(total, partial[0]);
    }
}
