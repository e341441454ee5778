#version 100
// ES 1.00 fragment shaders have no default float precision.
float f;
precision mediump float;
precision mediump vec4;
vec4 g;
float h = f;
void main()
{
    gl_FragColor = g + vec4(h);
}
