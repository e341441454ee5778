#version 310 es
// GLSL ES 3.10 §7.2: the image limits of ES (no geometry, tessellation,
// sample or unit-and-output constants there).
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { int v[]; };
void main()
{
    v[0] = gl_MaxImageUnits + gl_MaxVertexImageUniforms + gl_MaxFragmentImageUniforms;
    v[1] = gl_MaxComputeImageUniforms + gl_MaxCombinedImageUniforms;
    v[2] = gl_MaxCombinedShaderOutputResources;
    v[3] = gl_MaxImageSamples;
    v[4] = gl_MaxGeometryImageUniforms;
    v[5] = gl_MaxCombinedImageUnitsAndFragmentOutputs;
}
