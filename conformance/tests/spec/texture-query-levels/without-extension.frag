// [config]
// expect_result: fail
// glsl_version: 1.30
// require_extensions: GL_ARB_texture_query_levels
// [end config]
//
// Before GLSL 4.30 textureQueryLevels needs the extension enabled.
#version 130
uniform sampler2D s;
out vec4 color;
void main()
{
    color = vec4(float(textureQueryLevels(s)));
}
