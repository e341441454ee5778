// [config]
// expect_result: fail
// glsl_version: 1.40
// require_extensions: GL_ARB_shader_atomic_counters
// [end config]
//
// GLSL 4.20 §4.1.7: opaque variables are uniforms or function parameters;
// a local atomic_uint is an error.
#version 140
#extension GL_ARB_shader_atomic_counters: require
out vec4 color;
void main()
{
    atomic_uint local;
    color = vec4(0.0);
}
