// [config]
// expect_result: pass
// glsl_version: 1.00
// check_link: false
// [end config]
//
// GLSL ES 1.00 §4.1.8: a struct may hold members of an earlier struct type
// (nesting by name), and nested constructors and `==` work on them.
#version 100
precision mediump float;
struct Inner { float x; vec2 y; };
struct Outer { Inner inner; float z; };
void main()
{
    Outer a = Outer(Inner(1.0, vec2(2.0, 3.0)), 4.0);
    Outer b = a;
    b.inner.y.x = 2.0;
    gl_FragColor = a == b ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);
}
