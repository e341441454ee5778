#version 430
// GLSL 4.00 §8.13: the interpolant is a shader input, swizzled only from GLSL
// 4.40. interpolateAtOffset follows the same rules.
in vec4 v;
uniform vec4 u;
out vec4 color;
void main()
{
    vec4 t = v;
    color = interpolateAtCentroid(t);
    color += interpolateAtSample(u, 0);
    color.xy += interpolateAtCentroid(v.yx);
    color += interpolateAtOffset(v, vec2(0.25));
    color += interpolateAtOffset(t, vec2(0.25));
}
