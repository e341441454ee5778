#version 130
in vec4 pos;
out vec4 v;
struct S { vec3 p; float w; };

float square(float x) { return x * x; }
float square(int x) { return float(x * x); }
void split(in vec4 p, out vec3 xyz, inout float w) { xyz = p.xyz; w += p.w; }
S make(vec3 p, float w) { S s; s.p = p; s.w = w; return s; }
vec4 sum(float a[3]) {
    float t = 0.0;
    for (int i = 0; i < 3; i++) t += a[i];
    return vec4(t);
}
void early(inout vec4 x) {
    if (x.x > 0.0) return;
    x = -x;
}
void main() {
    vec3 xyz;
    float w = 1.0;
    split(pos, xyz, w);
    S s = make(xyz, square(w) + square(2));
    float arr[3] = float[3](1.0, 2.0, s.w);
    vec4 r = sum(arr);
    early(r);
    vec4 t = vec4(0.0);
    split(r, t.zyx, t.w);
    gl_Position = vec4(s.p, s.w) + r + t;
    v = pos;
}
