// [config]
// expect_result: pass
// glsl_version: 1.20
// check_link: false
// [end config]
//
// GLSL 1.20 §4.3.3: a built-in function call whose arguments are all
// constant expressions is a constant expression (texture lookups excepted).
// Each value is checked at compile time: an array declared with a negative
// size is an error, so `check[... ? 1 : -1]` compiles only when the folded
// value is right.
#version 120
const float s = sin(0.0) + cos(0.0);                 // 1
const float l = length(vec2(3.0, 4.0));              // 5
const vec3 n = normalize(vec3(0.0, 3.0, 4.0));       // (0, 0.6, 0.8)
const float p = pow(2.0, 3.0);                       // 8
const float c = clamp(7.5, 0.0, 2.0);                // 2
const float m = max(abs(-3.0), floor(2.7));          // 3
const float d = dot(vec3(1.0, 2.0, 3.0), vec3(4.0, 5.0, 6.0)); // 32
const mat2 cm = matrixCompMult(mat2(2.0), mat2(3.0));          // diag 6
const vec3 x = cross(vec3(1.0, 0.0, 0.0), vec3(0.0, 1.0, 0.0)); // (0, 0, 1)
const float st = step(0.5, 0.7) + smoothstep(0.0, 1.0, 0.5);   // 1.5
const mat3 t = transpose(mat3(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0));
float check_s[s == 1.0 ? 1 : -1];
float check_l[l == 5.0 ? 1 : -1];
float check_n[abs(n.y - 0.6) < 0.0001 && abs(n.z - 0.8) < 0.0001 ? 1 : -1];
float check_p[int(p)];
float check_pv[p == 8.0 ? 1 : -1];
float check_c[c == 2.0 ? 1 : -1];
float check_m[m == 3.0 ? 1 : -1];
float check_d[d == 32.0 ? 1 : -1];
float check_cm[cm[0][0] == 6.0 && cm[0][1] == 0.0 ? 1 : -1];
float check_x[x == vec3(0.0, 0.0, 1.0) ? 1 : -1];
float check_st[st == 1.5 ? 1 : -1];
float check_t[t[0][1] == 4.0 && t[2][0] == 3.0 ? 1 : -1];
void main() { gl_FragColor = vec4(check_p.length()); }
