#version 130
uniform vec4 a;
uniform ivec2 i;
uniform uvec2 u;
out vec4 color;

void main()
{
    vec4 r = trunc(a) + round(a) + roundEven(a) + sinh(a) + cosh(a) + tanh(a);
    r += asinh(a) + acosh(a) + atanh(a);
    bvec4 n = isnan(a);
    bvec4 f = isinf(a);
    ivec2 mi = min(i, 3) + max(i, ivec2(1)) + clamp(i, 0, 4) + abs(i) + sign(i);
    uvec2 mu = min(u, 3u) + clamp(u, 1u, 2u);
    vec4 m = mix(a, r, bvec4(true, false, true, false));
    color = r + m + vec4(n) + vec4(f) + vec4(mi.xyxy) + vec4(mu.xyxy);
}
