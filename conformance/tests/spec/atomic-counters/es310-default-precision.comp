// [config]
// expect_result: pass
// glsl_version: 3.10 es
// [end config]
//
// GLSL ES 3.10 §4.7.4: atomic_uint is predeclared highp, so a counter needs
// no precision statement.
#version 310 es
layout(local_size_x = 1) in;
layout(binding = 0) uniform atomic_uint a;
void main()
{
    atomicCounterIncrement(a);
}
