// [config]
// expect_result: fail
// glsl_version: 3.30
// require_extensions: GL_ARB_compute_shader
// [end config]
//
// GLSL 4.30 §4.3.8: "shared" may only be used in compute shaders.
#version 330
#extension GL_ARB_compute_shader: require
shared vec4 s;
out vec4 color;
void main()
{
    color = vec4(0.0);
}
