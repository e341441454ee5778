#version 300 es
// ES 3.00: no implicit conversions, no overloading built-ins.
precision mediump float;
uniform sampler3D s3;
out vec4 color;
float sin(float x) { return x; }
void main()
{
    float f = 1;
    color = vec4(f);
}
