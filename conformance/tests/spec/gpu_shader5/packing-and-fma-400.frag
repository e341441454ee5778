// [config]
// expect_result: pass
// glsl_version: 4.00
// check_link: true
// [end config]
//
// GLSL 4.00 §8.4: packUnorm2x16 and the 4x8 forms (and their inverses)
// exist in 4.00; §8.3 fma on every genType.
#version 400
in vec4 v;
out vec4 color;
void main()
{
    uint a = packUnorm4x8(v) ^ packSnorm4x8(v) ^ packUnorm2x16(v.xy);
    vec4 b = unpackUnorm4x8(a) + unpackSnorm4x8(a) + vec4(unpackUnorm2x16(a), 0.0, 0.0);
    color = b + vec4(fma(v.x, v.y, v.z), fma(v.xy, v.zw, v.yx), 0.0)
        + fma(v, v, v).wzyx;
}
