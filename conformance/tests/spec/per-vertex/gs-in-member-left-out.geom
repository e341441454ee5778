// [config]
// expect_result: fail
// glsl_version: 1.50
// check_link: false
// [end config]
//
// GLSL 4.10 §7.1: gl_PointSize left out of the redeclared gl_in cannot be
// read from gl_in.
#version 150
layout(points) in;
layout(points, max_vertices = 1) out;
in gl_PerVertex {
    vec4 gl_Position;
} gl_in[];
void main()
{
    gl_Position = gl_in[0].gl_Position * gl_in[0].gl_PointSize;
    EmitVertex();
}
