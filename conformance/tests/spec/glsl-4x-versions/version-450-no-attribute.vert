// [config]
// expect_result: fail
// glsl_version: 4.50
// [end config]
//
// GLSL 4.20 §3.6 made `attribute` and `varying` reserved words in the core
// profile again; 4.50 keeps them so.
#version 450
attribute vec4 p;
void main()
{
    gl_Position = p;
}
