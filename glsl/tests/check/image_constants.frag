#version 420
// GLSL 4.20 §7.3: the image limits are built-in constants in every stage
// (gl_MaxCombinedShaderOutputResources and the compute limits come with GLSL 4.30).
out vec4 color;
const int limits[10] = int[10](gl_MaxImageUnits, gl_MaxCombinedImageUnitsAndFragmentOutputs,
                               gl_MaxImageSamples, gl_MaxVertexImageUniforms,
                               gl_MaxTessControlImageUniforms, gl_MaxTessEvaluationImageUniforms,
                               gl_MaxGeometryImageUniforms, gl_MaxFragmentImageUniforms,
                               gl_MaxCombinedImageUniforms, gl_MaxComputeImageUniforms);
float units[gl_MaxImageUnits];
void main()
{
    color = vec4(float(limits[0] + units.length()), float(gl_MaxCombinedShaderOutputResources), 0.0, 1.0);
}
