// [config]
// expect_result: pass
// glsl_version: 1.50
// check_link: true
// [end config]
//
// GLSL 4.10 §7.1 (applied to 1.50's gl_PerVertex): a vertex shader may
// redeclare the output block with the subset of members it uses, before any
// use, and then write those members.
#version 150
out gl_PerVertex {
    vec4 gl_Position;
    float gl_PointSize;
};
in vec4 pos;
void main()
{
    gl_Position = pos;
    gl_PointSize = 2.0;
}
