// [config]
// expect_result: fail
// glsl_version: 1.30
// check_link: false
// [end config]
//
// GLSL 1.30 §4.1.7: samplers cannot be assigned, so a struct containing a
// sampler cannot be assigned either (§5.8: assignment needs an l-value of a
// type that can be assigned).
#version 130
struct S { sampler2D t; float f; };
uniform S u;
void main()
{
    S local;
    local = u;
    gl_FragColor = texture(local.t, vec2(0.0));
}
