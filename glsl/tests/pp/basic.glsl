#version 130
#define N 4
#define ADD(a, b) ((a) + (b))
uniform float u[N];
float f() { return ADD(u[0], 1.5e+3) * N; }
int x = __LINE__;
int y = __VERSION__;
