// [config]
// expect_result: fail
// glsl_version: 1.50
// require_extensions: GL_ARB_gpu_shader5
// check_link: false
// [end config]
//
// ARB_gpu_shader5: "If an implementation supports <N> vertex streams, the
// individual streams are numbered 0 through <N>-1"; MAX_VERTEX_STREAMS is 4.
#version 150
#extension GL_ARB_gpu_shader5 : require
layout(points) in;
layout(points, max_vertices = 1) out;
layout(stream = 4) out vec4 x;
void main() {}
