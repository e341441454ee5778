#version 130
uniform sampler2D s2d;
uniform sampler2DShadow s2ds;
uniform samplerCube scube;
uniform sampler2DArray sarr;
uniform isampler2D is2d;
uniform usampler3D us3d;
uniform sampler1D s1d;
in vec3 uv;
out vec4 color;

void main()
{
    vec4 a = texture(s2d, uv.xy);
    a += texture(s2d, uv.xy, 1.5);
    a += textureProj(s2d, uv);
    a += textureLod(s2d, uv.xy, 2.0);
    a += textureOffset(s2d, uv.xy, ivec2(1, -1));
    a += texelFetch(s2d, ivec2(uv.xy), 0);
    a += textureGrad(s2d, uv.xy, vec2(0.1), vec2(0.2));
    a += textureProjLod(s2d, uv, 1.0);
    float shadow = texture(s2ds, uv);
    vec4 cube = texture(scube, uv);
    vec4 layer = texture(sarr, uv);
    ivec4 ints = texture(is2d, uv.xy);
    uvec4 uints = texelFetch(us3d, ivec3(uv), 0);
    ivec2 size = textureSize(s2d, 0);
    vec4 one = texture(s1d, uv.x);
    color = a + cube + layer + vec4(shadow) + vec4(ints) + vec4(uints) + vec4(size, 0, 0) + one;
}
