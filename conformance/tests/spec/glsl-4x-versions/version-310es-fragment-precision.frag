// [config]
// expect_result: fail
// glsl_version: 3.10 es
// [end config]
//
// GLSL ES 3.10 §4.7.4: the fragment stage has no default float precision.
#version 310 es
out vec4 color;
void main()
{
    color = vec4(1.0);
}
