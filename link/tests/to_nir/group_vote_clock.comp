#version 430
#extension GL_ARB_shader_group_vote : require
#extension GL_ARB_shader_clock : require
// GL_ARB_shader_group_vote: vote_any, vote_all and vote_ieq on booleans;
// GL_ARB_shader_clock: clock2x32ARB is shader_clock (subgroup scope), a
// uvec2 of (low, high) words.
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer B { uvec2 t[4]; uint votes[4]; };
void main()
{
    uint i = gl_LocalInvocationIndex;
    bool odd = (i & 1u) == 1u;
    uint v = uint(anyInvocationARB(odd)) | uint(allInvocationsARB(odd)) << 1
           | uint(allInvocationsEqualARB(odd)) << 2;
    t[i] = clock2x32ARB();
    votes[i] = v;
}
