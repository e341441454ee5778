#version 110
attribute vec4 p;
void main()
{
    vec3 v = p;
    gl_Position = vec4(v, 1.0);
}
