// [config]
// expect_result: fail
// glsl_version: 1.40
// require_extensions: GL_ARB_texture_query_levels
// [end config]
//
// Rectangle textures have no mipmaps: textureQueryLevels has no overload for
// sampler2DRect.
#version 140
#extension GL_ARB_texture_query_levels: require
uniform sampler2DRect r;
out vec4 color;
void main()
{
    color = vec4(float(textureQueryLevels(r)));
}
