// [config]
// expect_result: pass
// glsl_version: 1.50
// check_link: false
// [end config]
//
// GLSL 4.10 §7.1: a geometry shader may redeclare both its input (as gl_in[],
// instance name required) and its output block.
#version 150
layout(points) in;
layout(points, max_vertices = 1) out;
in gl_PerVertex {
    vec4 gl_Position;
} gl_in[];
out gl_PerVertex {
    vec4 gl_Position;
};
void main()
{
    gl_Position = gl_in[0].gl_Position;
    EmitVertex();
}
