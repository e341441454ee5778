// [config]
// expect_result: pass
// glsl_version: 3.30
// require_extensions: GL_ARB_compute_shader
// [end config]
//
// ARB_compute_shader / GLSL 4.30 §4.4.1.1: "If a shader does not specify a
// size for one of the dimensions, that dimension will have a size of 1", and
// repeated declarations must agree on the whole size.
#version 330
#extension GL_ARB_compute_shader: require
layout(local_size_y = 4) in;
layout(local_size_x = 1, local_size_y = 4, local_size_z = 1) in;
int a[gl_WorkGroupSize == uvec3(1u, 4u, 1u) ? 1 : -1];
void main()
{
}
