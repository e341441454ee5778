#version 330
#extension GL_ARB_shader_image_load_store : require
// GL_ARB_shader_image_load_store: the image types and functions in GLSL
// 3.30; imageSize needs GLSL 4.30 or GL_ARB_shader_image_size.
layout(rgba32f) readonly uniform image2D img;
out vec4 color;
void main()
{
    color = imageLoad(img, ivec2(0));
    color.xy += vec2(imageSize(img));
}
