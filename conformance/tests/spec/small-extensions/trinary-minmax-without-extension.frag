// [config]
// expect_result: fail
// glsl_version: 1.30
// require_extensions: GL_AMD_shader_trinary_minmax
// [end config]
//
// min3, max3 and mid3 exist only with GL_AMD_shader_trinary_minmax enabled.
#version 130
uniform vec3 v;
out vec4 color;
void main()
{
    color = vec4(mid3(v.x, v.y, v.z));
}
