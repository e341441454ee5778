#version 130
#extension GL_MESA_shader_integer_functions : require
// GLSL 4.00 §8.8 integer functions and §8.3 frexp/ldexp, plus the implicit
// int → uint conversion (§4.1.10). The calls stay calls of the built-in
// signatures (no IR expansion).
uniform uint u;
uniform ivec2 iv;
out vec4 color;
void main()
{
    uint carry;
    uint sum = uaddCarry(u, 5u, carry);
    uvec2 borrow;
    uvec2 diff = usubBorrow(uvec2(u), uvec2(1u, 2u), borrow);
    ivec2 msb, lsb;
    imulExtended(iv, iv, msb, lsb);
    int e;
    float m = frexp(8.0, e);
    uint implicit_uint = iv.x;
    color = vec4(float(bitCount(sum) + findMSB(u) + findLSB(iv).y),
                 float(bitfieldExtract(u, 1, 3) + bitfieldInsert(implicit_uint, 1u, 0, 1)),
                 ldexp(m, e), float(bitfieldReverse(iv.x)) + float(diff.y + carry));
}
