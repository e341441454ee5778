#version 410
// Image types need GLSL 4.20 or GL_ARB_shader_image_load_store.
uniform image2D img;
void main()
{
}
