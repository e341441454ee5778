#version 120
uniform float u;
const float c = 1.0;
void main()
{
    const float d = u;
    c = 2.0;
    gl_FragColor = vec4(c + d);
}
