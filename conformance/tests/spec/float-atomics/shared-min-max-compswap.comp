// [config]
// expect_result: pass
// glsl_version: 3.30
// require_extensions: GL_ARB_compute_shader GL_INTEL_shader_atomic_float_minmax
// [end config]
//
// GL_INTEL_shader_atomic_float_minmax: atomicMin, atomicMax, atomicCompSwap
// and atomicExchange on float shared variables.
#version 330
#extension GL_ARB_compute_shader: require
#extension GL_INTEL_shader_atomic_float_minmax: require
layout(local_size_x = 4) in;
shared float lo;
shared float hi;
void main()
{
    float x = float(gl_LocalInvocationIndex);
    atomicMin(lo, x);
    atomicMax(hi, x);
    atomicCompSwap(lo, 0.0, -1.0);
    atomicExchange(hi, 2.0);
}
