// [config]
// expect_result: fail
// glsl_version: 1.50
// check_link: false
// [end config]
//
// GLSL 4.10 §7.1: a redeclared member keeps its built-in type; gl_PointSize
// is a float.
#version 150
out gl_PerVertex {
    vec4 gl_Position;
    vec2 gl_PointSize;
};
void main() { gl_Position = vec4(0.0); }
