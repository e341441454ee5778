// [config]
// expect_result: fail
// glsl_version: 1.50
// check_link: false
// [end config]
//
// GLSL 4.10 §7.1.1: a redeclared gl_in must keep the instance name gl_in.
#version 150
layout(points) in;
layout(points, max_vertices = 1) out;
in gl_PerVertex {
    vec4 gl_Position;
} verts[];
void main()
{
    gl_Position = verts[0].gl_Position;
    EmitVertex();
}
