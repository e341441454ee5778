#version 130
// Operator typing rules.
void main()
{
    vec3 v3 = vec3(1.0);
    vec2 v2 = vec2(1.0);
    mat3 m3 = mat3(1.0);
    mat2x3 m23 = mat2x3(1.0);
    int i = 1;
    uint u = 1u;
    bool b = true;
    float f;
    f = b + 1.0;
    v3 = v3 + v2;
    v3 = m23 * m3;
    f = i + u;
    i = i % 2.0;
    i = i << v2;
    i = i & true;
    b = v3 < v3;
    b = v3 == v2;
    b = !i;
    i = ~f;
    b = b && i;
    f = b ? 1 : v2;
    ivec2 iv2 = ivec2(1) << ivec3(1);
    i = 1 << ivec2(1);
    ivec2 a2 = ivec2(1) & ivec3(1);
    i = i % uvec2(1);
    f = -b;
    b = i > b;
    gl_FragColor = vec4(f);
}
