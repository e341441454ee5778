// GLSL 1.10: no implicit conversions, no integer operators.
void main()
{
    float f = 1;
    int i = 3;
    f = f + i;
    i = i % 2;
    i = i << 1;
    i = i & 1;
    i = ~i;
    float a[2];
    float c[2];
    a = c;
    bool e = a == c;
    gl_Position = vec4(f);
}
