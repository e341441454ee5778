// [config]
// expect_result: fail
// glsl_version: 1.40
// require_extensions: GL_ARB_shader_atomic_counters GL_ARB_shader_atomic_counter_ops
// [end config]
//
// The atomicCounter*ARB functions exist only with
// GL_ARB_shader_atomic_counter_ops enabled.
#version 140
#extension GL_ARB_shader_atomic_counters: require
layout(binding = 0) uniform atomic_uint a;
out vec4 color;
void main()
{
    color = vec4(float(atomicCounterAddARB(a, 2u)));
}
