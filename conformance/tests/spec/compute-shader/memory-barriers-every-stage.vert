// [config]
// expect_result: pass
// glsl_version: 3.30
// require_extensions: GL_ARB_compute_shader
// [end config]
//
// GLSL 4.30 §8.16: memoryBarrier, memoryBarrierAtomicCounter,
// memoryBarrierBuffer and memoryBarrierImage are available in every stage;
// the compute limits constants too (§7.3).
#version 330
#extension GL_ARB_compute_shader: require
void main()
{
    memoryBarrier();
    memoryBarrierAtomicCounter();
    memoryBarrierBuffer();
    memoryBarrierImage();
    gl_Position = vec4(gl_MaxComputeWorkGroupCount.x + gl_MaxComputeWorkGroupSize.z
        + gl_MaxComputeAtomicCounterBuffers);
}
