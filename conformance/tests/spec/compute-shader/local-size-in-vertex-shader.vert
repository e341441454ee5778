// [config]
// expect_result: fail
// glsl_version: 3.30
// require_extensions: GL_ARB_compute_shader
// [end config]
//
// GLSL 4.30 §4.4.1.1: "layout(local_size_x ...) in" declares the work-group
// size of a compute shader; other stages may not use it.
#version 330
#extension GL_ARB_compute_shader: require
layout(local_size_x = 2) in;
void main()
{
    gl_Position = vec4(0.0);
}
