#version 120
// Swizzles, fields, indexing, length().
struct S { vec3 p; float q[3]; };
uniform S s;
uniform sampler2D samplers[4];
void main()
{
    vec4 v = vec4(1.0);
    vec2 a = v.xyzwx;
    vec2 b = v.xg;
    vec2 c = vec2(1.0).z;
    float d = s.nope;
    float e = 1.0.x;
    float f = v[4];
    float g = v[-1];
    mat3 m = mat3(1.0);
    vec3 h = m[3];
    float k = s.q[3];
    float l = s.q[1.0];
    float m2 = s.q[ivec2(1)];
    float n = d[0];
    int len = s.q.length();
    int len2 = v.length();
    int idx = 2;
    vec4 t = texture2D(samplers[idx], vec2(0.0));
    float implicit[];
    implicit[5] = 1.0;
    float implicit2 = implicit[idx];
    gl_FragColor = v + vec4(a, b) + vec4(c, d, e, f) + vec4(g, h) + vec4(k, l, m2, n) + t;
}
