// [config]
// expect_result: pass
// glsl_version: 3.10 es
// [end config]
//
// GLSL ES 3.10 §8.12: an r32ui image is read-write and takes atomics.
#version 310 es
layout(local_size_x = 1) in;
layout(r32ui, binding = 0) uniform highp uimage2D counter;
void main()
{
    imageAtomicAdd(counter, ivec2(0), 1u);
    imageAtomicCompSwap(counter, ivec2(1), 0u, imageSize(counter).x > 0 ? 1u : 2u);
}
