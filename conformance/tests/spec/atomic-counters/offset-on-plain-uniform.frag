// [config]
// expect_result: fail
// glsl_version: 1.40
// require_extensions: GL_ARB_shader_atomic_counters
// [end config]
//
// GLSL 4.20 §4.4.4.6: `offset` on a default-block variable is for atomic
// counters only.
#version 140
#extension GL_ARB_shader_atomic_counters: require
layout(offset = 4) uniform float x;
out vec4 color;
void main()
{
    color = vec4(x);
}
