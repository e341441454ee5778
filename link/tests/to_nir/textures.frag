#version 130
uniform sampler1D s1;
uniform sampler2D s2;
uniform sampler3D s3;
uniform samplerCube sc;
uniform sampler2DRect sr;
uniform sampler2DShadow s2s;
uniform samplerCubeShadow scs;
uniform sampler2DArray s2a;
uniform sampler2DArrayShadow s2as;
uniform isampler2D is2;
uniform usampler2D us2;
uniform sampler2D many[3];
uniform int which;
in vec4 tc;
out vec4 color;
vec4 through(sampler2D s, vec2 uv) { return texture(s, uv); }
void main() {
    vec4 c = texture(s1, tc.x) + texture(s2, tc.xy) + texture(s3, tc.xyz) + texture(sc, tc.xyz);
    c += texture(s2, tc.xy, 1.5) + textureLod(s2, tc.xy, 2.0) + textureOffset(s2, tc.xy, ivec2(1, -1));
    c += textureProj(s2, tc.xyz) + textureProj(s2, tc) + textureProjLod(s3, tc, 1.0);
    c += textureGrad(s2, tc.xy, vec2(0.1), vec2(0.2)) + textureProjGrad(s2, tc.xyz, vec2(0.1), vec2(0.2));
    c += texelFetch(s2, ivec2(tc.xy), 0) + texelFetchOffset(s2, ivec2(tc.xy), 1, ivec2(1));
    c += texture(sr, tc.xy) + texture(s2a, tc.xyz);
    c.x += texture(s2s, tc.xyz) + texture(scs, tc) + texture(s2as, tc) + textureProj(s2s, tc);
    c.x += textureLodOffset(s2s, tc.xyz, 0.0, ivec2(2));
    c += vec4(textureSize(s2, 0), textureSize(sr)) + vec4(textureSize(s2a, 1), 0.0);
    c += vec4(texture(is2, tc.xy)) + vec4(texture(us2, tc.xy));
    c += texture(many[2], tc.xy) + through(many[1], tc.zw);
    color = c;
}
