// [config]
// expect_result: fail
// glsl_version: 1.50
// require_extensions: GL_ARB_gpu_shader5
// check_link: false
// [end config]
//
// GLSL 4.00 §4.4.2.1: "the specified stream must match the stream
// associated with the containing block" (here the default, 0).
#version 150
#extension GL_ARB_gpu_shader5 : require
layout(points) in;
layout(points, max_vertices = 1) out;
out B {
    layout(stream = 2) vec4 x;
};
void main() {}
