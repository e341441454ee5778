// [config]
// expect_result: fail
// glsl_version: 1.30
// check_link: false
// [end config]
//
// GLSL 1.30 §7.1: gl_ClipDistance may be redeclared with a size up to
// gl_MaxClipDistances; a larger size is an error.
#version 130
out float gl_ClipDistance[gl_MaxClipDistances + 1];
void main() { gl_Position = vec4(0.0); }
