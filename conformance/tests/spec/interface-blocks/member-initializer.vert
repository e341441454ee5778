// [config]
// expect_result: fail
// glsl_version: 1.50
// check_link: false
// [end config]
//
// GLSL 1.50 §4.3.7: block members are declared without initializers.
#version 150
out Blk { vec4 a = vec4(1.0); } o;
void main() { gl_Position = o.a; }
