#version 150
#extension GL_ARB_shader_group_vote : require
#extension GL_ARB_shader_clock : require
// GL_ARB_shader_group_vote and GL_ARB_shader_clock: the calls stay calls of
// the built-in signatures (glsl_to_nir makes them vote and shader_clock
// intrinsics).
in vec4 p;
uniform bool b;
flat out uvec2 t;
void main()
{
    bool any_ = anyInvocationARB(p.x > 0.0);
    bool all_ = allInvocationsARB(b);
    bool eq = allInvocationsEqualARB(any_ && all_);
    t = clock2x32ARB();
    gl_Position = eq ? p : vec4(0.0);
}
