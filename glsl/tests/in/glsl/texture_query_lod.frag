#version 130
#extension GL_ARB_texture_query_lod : require
#extension GL_ARB_texture_cube_map_array : require
// GL_ARB_texture_query_lod: textureQueryLOD(sampler, P) is a `lod` texture
// operation whose coordinate has no array layer and no depth reference.
uniform sampler2D s2;
uniform isampler2DArray s2a;
uniform samplerCubeShadow sc;
uniform samplerCubeArrayShadow sca;
uniform sampler1DArray s1a;
in vec3 p;
out vec4 color;
void main()
{
    vec2 a = textureQueryLOD(s2, p.xy);
    vec2 b = textureQueryLOD(s2a, p.yz);
    vec2 c = textureQueryLOD(sc, p);
    vec2 d = textureQueryLOD(sca, p.zyx);
    vec2 e = textureQueryLOD(s1a, p.x);
    color = vec4(a + b, c + d + e);
}
