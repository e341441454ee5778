// [config]
// expect_result: pass
// glsl_version: 1.30
// require_extensions: GL_ARB_texture_query_levels
// [end config]
//
// ARB_texture_query_levels: textureQueryLevels(sampler) returns an int for
// every sampler type with mipmaps, shadow samplers included.
#version 130
#extension GL_ARB_texture_query_levels: require
uniform sampler1D s1;
uniform isampler2D s2;
uniform usampler3D s3;
uniform samplerCube sc;
uniform sampler2DArray sa;
uniform sampler2DShadow ss;
uniform samplerCubeShadow scs;
out vec4 color;
void main()
{
    int n = textureQueryLevels(s1) + textureQueryLevels(s2) + textureQueryLevels(s3)
        + textureQueryLevels(sc) + textureQueryLevels(sa) + textureQueryLevels(ss)
        + textureQueryLevels(scs);
    color = vec4(float(n));
}
