// [config]
// expect_result: pass
// glsl_version: 4.00
// [end config]
//
// GLSL 4.00 §8.8: the integer functions and the implicit int → uint
// conversion are core.
#version 400
in uvec2 v;
void main()
{
    uint carry;
    uint sum = uaddCarry(v.x, v.y, carry);
    uint widened = 7;
    gl_Position = vec4(float(sum + carry + widened + uint(bitCount(v.x))));
}
