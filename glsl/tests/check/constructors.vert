#version 120
// Constructor rules.
struct S { float a; int b; };
void main()
{
    vec4 a = vec4(1.0, 2.0);
    vec2 b = vec2(1.0, 2.0, 3.0);
    mat2 c = mat2(mat2(1.0), 1.0);
    S d = S(1.0);
    S e = S(1.0, 2.0, 3);
    S f = S(1.0, vec2(1.0));
    float g[2] = float[2](1.0);
    float h[2] = float[2](1.0, vec2(1.0));
    float k[] = float[](1.0, 2.0, 3.0);
    vec3 l = vec3(k);
    vec4 m = vec4(sampler2D(0));
    mat3 n = mat3(vec3(1.0), vec3(2.0), vec3(3.0));
    mat2 o = mat2(n);
    gl_Position = a + vec4(b, 0.0, 0.0) + vec4(c[0], float(d.b), 0.0) + vec4(k[2]) + vec4(l, 0.0) + m;
}
