#version 110
uniform vec4 v;
void main()
{
    gl_FragColor = vec4(v.xyq, v.w);
}
