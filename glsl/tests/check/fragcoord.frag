#version 150
// gl_FragCoord redeclarations.
vec4 early = gl_FragCoord;
layout(origin_upper_left) in vec4 gl_FragCoord;
layout(pixel_center_integer) in vec4 gl_FragCoord;
layout(origin_upper_left) in vec4 other;
out vec4 color;
void main()
{
    color = gl_FragCoord + other + early;
}
