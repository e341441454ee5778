#version 130
struct P { vec2 a; float b[2]; };
uniform struct U { bool on; ivec2 k; } u;
uniform mat3 m;
uniform int i;
uniform int j;
in vec4 pos;
out vec4 v;
float g = 2.0;
const float table[4] = float[4](1.0, 2.0, 4.0, 8.0);
P make(float x) { P p; p.a = vec2(x); p.b[0] = x; p.b[1] = g; g += 1.0; return p; }
float[2] pair(float x) { return float[2](x, -x); }
void fill(out P p, out mat3 n, inout float arr[2]) { p = make(arr[0]); n = m; arr[1] = 3.0; }
bool check(U x) { return x.on && x.k.y > 0; }
void main() {
    mat3 a = i > 0 ? m : mat3(1.0);
    P p1 = make(pos.x);
    P p2 = j > 0 ? p1 : make(pos.y);
    float arr[2] = pair(pos.z);
    mat3 n;
    fill(p1, n, arr);
    n[1][i] = 5.0;
    float x = n[i][j] + a[2][i] + table[i];
    bool same = p1 == p2 || arr == pair(1.0) || a != n;
    if (check(u))
        x += 1.0;
    vec4 w = pos;
    w[i] += 1.0;
    v = vec4(x, float(same), g, w[j]) + w;
    gl_Position = pos;
}
