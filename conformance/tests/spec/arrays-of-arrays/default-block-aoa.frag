// [config]
// expect_result: pass
// glsl_version: 1.50
// require_extensions: GL_ARB_arrays_of_arrays
// check_link: true
// [end config]
//
// GLSL 4.30 §4.1.9 / §4.3.5 (ARB_arrays_of_arrays): uniforms, including
// samplers and uniform block members, may be arrays of arrays.
#version 150
#extension GL_ARB_arrays_of_arrays: require
uniform float u[2][3];
uniform sampler2D tex[2][2];
uniform blk {
    vec4 m[2][2];
};
out vec4 color;
void main()
{
    color = texture(tex[1][0], vec2(u[1][2])) + m[1][1];
}
