#version 440
// GLSL 4.00 §8.13 on a single-sampled target: the centroid and sample 0 are
// the pixel centre, so both calls are the interpolant itself (swizzles,
// vector components and array elements of inputs allowed in 4.40).
in vec3 a;
in float b[2];
uniform int i;
out vec4 color;
void main()
{
    vec2 s = interpolateAtSample(a.yx, 0);
    float c = interpolateAtCentroid(a[i]);
    float d = interpolateAtCentroid(b[1]);
    color = vec4(s, c, d);
}
