#version 330
// Without GLSL 4.20 or ARB_shader_image_load_store there are no image limits.
void main()
{
    gl_Position = vec4(gl_MaxImageUnits);
}
