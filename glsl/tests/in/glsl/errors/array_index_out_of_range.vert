#version 120
void main()
{
    float a[2] = float[2](1.0, 2.0);
    gl_Position = vec4(a[2]);
}
