// [config]
// expect_result: fail
// glsl_version: 3.30
// require_extensions: GL_ARB_compute_shader
// [end config]
//
// GLSL 4.30 §8.15: barrier() exists in compute (and tessellation control)
// shaders only.
#version 330
#extension GL_ARB_compute_shader: require
out vec4 color;
void main()
{
    barrier();
    color = vec4(0.0);
}
