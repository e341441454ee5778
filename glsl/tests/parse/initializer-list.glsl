#version 330
float a[2] = { 1.0, 2.0 };
struct S { vec2 v; float f; };
S s = { { 1.0, 2.0 }, 3.0, };
