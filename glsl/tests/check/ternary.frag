#version 110
// ?: rules in 1.10.
uniform bool b;
void main()
{
    float a[2];
    float c[2];
    float f = b ? a : c;
    vec2 v = b ? vec2(1.0) : vec3(1.0);
    float g = 1.0 ? 1.0 : 2.0;
    gl_FragColor = vec4(f, v, g);
}
