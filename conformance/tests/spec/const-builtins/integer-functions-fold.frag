// [config]
// expect_result: pass
// glsl_version: 1.30
// check_link: false
// [end config]
//
// GLSL 1.30 §4.3.3: integer built-ins fold too, and their results can size
// arrays.
#version 130
const int a = abs(-4);
const ivec2 c = clamp(ivec2(-5, 9), 0, 4);
const uint u = max(3u, 7u);
const int sg = sign(-9);
const int mn = min(a, 2);
float arr[c.y + mn];
float check_a[a == 4 ? 1 : -1];
float check_c[c == ivec2(0, 4) ? 1 : -1];
float check_u[u == 7u ? 1 : -1];
float check_sg[sg == -1 ? 1 : -1];
float check_len[arr.length() == 6 ? 1 : -1];
void main() { gl_FragColor = vec4(arr.length()); }
