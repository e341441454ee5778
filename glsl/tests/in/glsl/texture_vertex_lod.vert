#version 110
uniform sampler2D heightmap;
attribute vec4 position;

void main()
{
    float h = texture2DLod(heightmap, position.xy, 0.0).r;
    gl_Position = position + vec4(0.0, h, 0.0, 0.0);
}
