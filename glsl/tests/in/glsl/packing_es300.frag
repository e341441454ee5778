#version 300 es
precision highp float;
uniform vec2 v;
uniform uint p;
out vec4 color;

void main()
{
    uint a = packSnorm2x16(v);
    uint b = packUnorm2x16(v);
    uint c = packHalf2x16(v);
    vec2 d = unpackSnorm2x16(p) + unpackUnorm2x16(p) + unpackHalf2x16(p);
    int bits = floatBitsToInt(v.x);
    uint ubits = floatBitsToUint(v.y);
    float back = intBitsToFloat(bits) + uintBitsToFloat(ubits);
    color = vec4(float(a + b + c), d, back);
}
