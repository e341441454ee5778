// [config]
// expect_result: fail
// glsl_version: 1.50
// require_extensions: GL_ARB_shader_clock
// [end config]
//
// ARB_shader_clock's clockARB() returns a uint64_t, which needs
// GL_ARB_gpu_shader_int64; without it only clock2x32ARB() exists.
#version 150
#extension GL_ARB_shader_clock : require
void main()
{
    uvec2 t = clock2x32ARB();
    gl_Position = vec4(float(t.x)) + vec4(float(clockARB()));
}
