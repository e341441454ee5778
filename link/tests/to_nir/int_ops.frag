#version 330
uniform ivec4 i;
uniform ivec4 j;
uniform uvec4 u;
uniform uvec4 v;
uniform int k;
flat in int dyn;
out ivec4 o_i;
out uvec4 o_u;
void main() {
    ivec4 r = i + j * k - i / j + i % j;
    r += -i + abs(j) + sign(i) + min(i, j) + max(i, k) + clamp(i, 0, 7);
    r += (i << 2) + (j >> k) + (i & j) + (i | j) + (i ^ j) + ~i;
    uvec4 q = u + v * 3u - u / v + u % v;
    q += min(u, v) + max(u, 2u) + (u << 1u) + (v >> 2u) + (u & v) + (u | v) + (u ^ v) + ~u;
    r.x += i[dyn];
    r[dyn] = 5;
    q.yz = uvec2(i.xy) + uvec2(floatBitsToUint(1.5));
    o_i = r + ivec4(vec4(q)) + floatBitsToInt(vec4(1.0));
    o_u = q + uvec4(intBitsToFloat(ivec4(3)));
}
