#version 150
#extension GL_EXT_shader_integer_mix : require
#extension GL_AMD_shader_trinary_minmax : require
#extension GL_ARB_derivative_control : require
// GL_EXT_shader_integer_mix: mix(x, y, bvec) on int, uint and bool operands
// lowers to a component select. GL_AMD_shader_trinary_minmax: min3/max3 are
// two min/max, mid3 is max(min(x, y), min(max(x, y), z)).
// GL_ARB_derivative_control: the fine and coarse derivatives are their own
// operators; fwidthFine/fwidthCoarse add the absolute values at that
// granularity.
uniform ivec3 i;
uniform uvec2 u;
uniform bvec2 s;
uniform vec3 f;
out vec4 color;
void main()
{
    ivec3 mi = mix(i, i.zyx, bvec3(s, true));
    uvec2 mu = mix(u, u.yx, s);
    bool mb = mix(s.x, s.y, s.x);
    float lo = min3(f.x, f.y, f.z);
    ivec3 hi = max3(i, i.yzx, mi);
    uint mid = mid3(u.x, u.y, mu.x);
    float d = dFdxFine(f.x) + dFdyFine(f.y) + dFdxCoarse(f.z) + dFdyCoarse(lo);
    vec2 w = fwidthFine(f.xy) + fwidthCoarse(f.yz);
    color = vec4(float(hi.x + int(mid)), d, w.x + w.y, float(mb));
}
