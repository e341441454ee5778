// [config]
// expect_result: fail
// glsl_version: 1.30
// require_extensions: GL_EXT_shader_integer_mix
// [end config]
//
// Before GLSL 4.50 mix(ivec, ivec, bvec) needs GL_EXT_shader_integer_mix
// enabled. Without it the call resolves to mix(vec, vec, bvec) through the
// implicit int → float conversion (GLSL 1.30 §4.1.10), whose vec2 result
// cannot initialize an ivec2.
#version 130
uniform ivec2 a, b;
uniform bvec2 s;
out vec4 color;
void main()
{
    ivec2 m = mix(a, b, s);
    color = vec4(vec2(m), 0.0, 1.0);
}
