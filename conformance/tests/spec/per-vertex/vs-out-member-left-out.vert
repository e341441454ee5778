// [config]
// expect_result: fail
// glsl_version: 1.50
// check_link: false
// [end config]
//
// GLSL 4.10 §7.1: members left out of a redeclared gl_PerVertex are not
// declared; writing gl_ClipDistance after redeclaring only gl_Position is an
// error.
#version 150
out gl_PerVertex {
    vec4 gl_Position;
};
void main()
{
    gl_Position = vec4(0.0);
    gl_ClipDistance[0] = 1.0;
}
