// [config]
// expect_result: pass
// glsl_version: 1.50
// require_extensions: GL_ARB_shader_group_vote
// [end config]
//
// ARB_shader_group_vote's functions exist in every stage.
#version 150
#extension GL_ARB_shader_group_vote : require
layout(points) in;
layout(points, max_vertices = 1) out;
void main()
{
    bool far = gl_in[0].gl_Position.z > 0.5;
    if (anyInvocationARB(far) && !allInvocationsARB(far) || allInvocationsEqualARB(far)) {
        gl_Position = gl_in[0].gl_Position;
        EmitVertex();
    }
}
