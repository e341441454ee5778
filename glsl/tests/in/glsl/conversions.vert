#version 130
in vec4 p;
in int n;
in uint un;
void main()
{
    int a = int(p.x);
    float b = float(n);
    uint c = uint(n);
    int d = int(un);
    float e = float(un);
    bool f = bool(p.y);
    bool g = bool(n);
    float h = float(f);
    int k = int(g);
    vec2 v2 = vec2(n);
    ivec3 iv = ivec3(p.xyz);
    bvec2 bv = bvec2(p.zw);
    vec4 v4 = vec4(v2, 1, 2u);
    vec3 v3 = vec3(p);
    float from_vec = float(p);
    gl_Position = v4 + vec4(v3, from_vec) + vec4(float(a + d + k) + b + e + h + float(c), iv.x, bv.y, 0.0);
}
