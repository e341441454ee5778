#version 130
#extension GL_ARB_shading_language_420pack : require
#extension GL_ARB_arrays_of_arrays : require
// GLSL 4.20 §4.1.11: each list item initializes one component, column,
// element or member, in order; items convert implicitly (§4.1.10).
struct S { float f; ivec2 v; };
const vec3 c = { 1, 2.0, 3 };
const float[] sized_by_list = { 1.0, 2.0, 3.0 };
uniform float u;
void main()
{
    mat2 m = { vec2(1.0, 0.0), { 0, u } };
    S s = { u, { 4, 5 } };
    vec4[2][2] a = { { vec4(0.0), vec4(1.0) }, vec4[2](vec4(2.0), vec4(u)) };
    gl_Position = a[1][1] + vec4(c, sized_by_list[2]) + vec4(m[1], s.f, float(s.v.y));
}
