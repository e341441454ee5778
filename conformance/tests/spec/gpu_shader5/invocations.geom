// [config]
// expect_result: pass
// glsl_version: 1.50
// require_extensions: GL_ARB_gpu_shader5
// check_link: true
// [end config]
//
// ARB_gpu_shader5 / GLSL 4.00 §4.4.1.2: "layout(invocations = N) in;" runs
// the geometry shader N times per input primitive, and gl_InvocationID is
// the invocation number; repeated declarations must agree.
#version 150
#extension GL_ARB_gpu_shader5 : require
layout(triangles, invocations = 4) in;
layout(invocations = 4) in;
layout(triangle_strip, max_vertices = 3) out;
flat out int inv;
void main()
{
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position;
        inv = gl_InvocationID;
        EmitVertex();
    }
}
