#version 430
#extension GL_NV_shader_atomic_float : require
// NV_shader_atomic_float: each invocation adds 1.5 to a shared float and,
// after the barrier, invocation 0 adds the workgroup's total to the buffer
// and exchanges it into `last`.
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer B { float sum; float last; };
shared float s;
void main() {
    if (gl_LocalInvocationIndex == 0u)
        s = 0.0;
    barrier();
    atomicAdd(s, 1.5);
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
        atomicAdd(sum, s);
        atomicExchange(last, s);
    }
}
