// [config]
// expect_result: pass
// glsl_version: 3.30
// require_extensions: GL_ARB_compute_shader
// [end config]
//
// GLSL 4.30 §8.11: the atomic memory functions on int and uint shared
// variables, including array elements and struct members.
#version 330
#extension GL_ARB_compute_shader: require
layout(local_size_x = 16) in;
struct S { int i; uint u[2]; };
shared S s;
shared uint counts[4];
void main()
{
    uint old = atomicAdd(counts[gl_LocalInvocationIndex % 4u], 1u);
    atomicMax(s.i, int(old));
    atomicCompSwap(s.u[1], old, 7u);
    atomicExchange(s.i, 3);
}
