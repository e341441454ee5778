// [config]
// expect_result: fail
// glsl_version: 3.30
// require_extensions: GL_ARB_compute_shader
// [end config]
//
// GL 4.3 §19.1 / GLSL 4.30 §4.4.1.1: the product of the local sizes may not
// exceed MAX_COMPUTE_WORK_GROUP_INVOCATIONS (1024 here), even when every
// dimension is within gl_MaxComputeWorkGroupSize.
#version 330
#extension GL_ARB_compute_shader: require
layout(local_size_x = 64, local_size_y = 32) in;
void main()
{
}
