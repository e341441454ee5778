#version 150
// Without their #extension lines the built-ins of GL_EXT_shader_integer_mix,
// GL_AMD_shader_trinary_minmax, GL_ARB_derivative_control,
// GL_ARB_shader_group_vote and GL_ARB_shader_clock do not exist (integer mix
// is core only in GLSL 4.50, the fine/coarse derivatives too).
uniform ivec2 i;
uniform bvec2 s;
out vec4 color;
void main()
{
    ivec2 m = mix(i, i.yx, s);
    float a = min3(1.0, 2.0, color.x);
    float d = dFdxFine(color.y);
    bool v = anyInvocationARB(s.x);
    uvec2 t = clock2x32ARB();
    color = vec4(float(m.x), a, d, float(v) + float(t.x));
}
