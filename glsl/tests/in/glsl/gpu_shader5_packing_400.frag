#version 400
// GLSL 4.00 §8.4 packing (4x8 and packUnorm2x16), §8.3 fma, §7.1
// gl_SampleMaskIn, §8.13 interpolateAtOffset of smooth, noperspective and
// flat inputs.
in vec4 v;
noperspective in vec2 n;
flat in float f;
out vec4 color;
void main()
{
    uint a = packUnorm4x8(v) ^ packSnorm4x8(v) ^ packUnorm2x16(v.xy);
    color = unpackUnorm4x8(a) + unpackSnorm4x8(a) + fma(v, v, v);
    color.x += float(gl_SampleMaskIn[0]);
    color += interpolateAtOffset(v, vec2(0.25, -0.125));
    color.xy += interpolateAtOffset(n, vec2(0.25));
    color.z += interpolateAtOffset(f, vec2(0.25));
}
