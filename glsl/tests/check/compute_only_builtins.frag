#version 330
#extension GL_ARB_compute_shader : require
// Compute-only names in another stage (GLSL 4.30 §4.3.8, §7.1, §8.15): the
// limits constants and memoryBarrierBuffer() exist in every stage.
shared float s;
out vec4 color;
void main()
{
    barrier();
    memoryBarrierShared();
    groupMemoryBarrier();
    memoryBarrierBuffer();
    color = vec4(gl_LocalInvocationID) + vec4(gl_MaxComputeWorkGroupSize.x);
}
