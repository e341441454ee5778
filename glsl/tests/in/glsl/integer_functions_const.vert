#version 130
#extension GL_MESA_shader_integer_functions : require
// GLSL 4.00 §4.3.3: built-in calls with constant arguments are constant
// expressions; the integer functions fold (§8.8 values).
const int ones = bitCount(0xF0F0u);                  // 8
const int lsb = findLSB(40);                          // 3
const int msb_neg = findMSB(-1);                      // -1 (no 0 bit)
const ivec2 msb = findMSB(ivec2(0x100, -9));          // (8, 3)
const uint extracted = bitfieldExtract(0xABCDu, 4, 8); // 0xBC
const int sign_extended = bitfieldExtract(0x0F0, 4, 4); // -1
const uint inserted = bitfieldInsert(0xFFFFu, 0u, 4, 8); // 0xF00F
const uint reversed = bitfieldReverse(1u);            // 0x80000000
const float scaled = ldexp(0.75, 3);                  // 6.0
const float flushed = ldexp(-0.5, -127);              // -0.0 (denormal flushed)
float sized[ones];
void main()
{
    gl_Position = vec4(float(lsb + msb_neg + msb.x + msb.y + sign_extended),
                       float(extracted + inserted + reversed), scaled + flushed, sized[7]);
}
