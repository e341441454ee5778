// [config]
// expect_result: pass
// glsl_version: 1.10
// check_link: false
// [end config]
//
// GLSL 1.10 §4.1.8: an embedded struct definition needs a declarator, and
// its name is scoped at the level of the enclosing struct, so it can be used
// after it.
#version 110
struct Outer {
    struct Inner { float x; vec2 y; } inner;
    float z;
};
Inner lone;
void main()
{
    Outer o = Outer(Inner(1.0, vec2(2.0, 3.0)), 4.0);
    lone = o.inner;
    gl_FragColor = vec4(lone.x, lone.y, o.z);
}
