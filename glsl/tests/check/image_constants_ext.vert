#version 150
#extension GL_ARB_shader_image_load_store : require
// ARB_shader_image_load_store brings the image limits to GLSL 1.50 (the
// tessellation ones need GLSL 4.00).
void main()
{
    gl_Position = vec4(gl_MaxImageUnits, gl_MaxGeometryImageUniforms, gl_MaxImageSamples,
                       gl_MaxCombinedImageUnitsAndFragmentOutputs);
    gl_PointSize = float(gl_MaxTessControlImageUniforms);
}
