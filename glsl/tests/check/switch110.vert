#version 120
// switch needs GLSL 1.30.
void main()
{
    int i = 1;
    switch (i) { default: break; }
    gl_Position = vec4(0.0);
}
