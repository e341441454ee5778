// GLSL 1.10: no array constructors, no matrix-from-matrix.
void main()
{
    mat3 m = mat3(1.0);
    mat2 n = mat2(m);
    float a[2] = float[2](1.0, 2.0);
    gl_Position = vec4(n[0], 0.0, 0.0);
}
