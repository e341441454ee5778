#version 130
// Assorted errors.
highp struct S { float a; };
float big[100000000];
float unnamed(float, int b) { return 1.0; }
void main()
{
    float x = 1.0;
    int i = int(1.0) + true;
    gl_FragColor = vec4(x);
}
