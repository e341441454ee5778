#version 130
#extension GL_ARB_shading_language_420pack : require
// GLSL 4.20 §4.1.11: vectors take one item per component, matrices one
// per column; lists only initialize aggregates; items convert implicitly.
struct S { float f; int i; };
vec3 too_many = { 1.0, 2.0, 3.0, 4.0 };
vec3 too_few = { 1.0, 2.0 };
float scalar = { 1.0 };
mat2 bad_column = { vec3(1.0), vec2(0.0) };
ivec2 no_float_to_int = { 1.5, 2 };
S bad_member = { 1.0, 2.0 };
float[2] bad_count = { 1.0, 2.0, 3.0 };
void main() { }
S extra_nested_item = { 1.0, 2, { 3 } };
S missing_member = { 1.0 };
vec2[2] nested_too_short = { { 1.0 }, { 1.0, 2.0 } };
