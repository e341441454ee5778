// [config]
// expect_result: pass
// glsl_version: 4.00
// [end config]
//
// GLSL 4.00 §8.9.4: every textureGather, textureGatherOffset (constant or
// not) and textureGatherOffsets overload, with their return types.
#version 400
uniform sampler2D s2; uniform isampler2D i2; uniform usampler2D u2;
uniform sampler2DArray a2; uniform isampler2DArray ia2; uniform usampler2DArray ua2;
uniform samplerCube c; uniform isamplerCube ic; uniform usamplerCube uc;
uniform samplerCubeArray ca; uniform isamplerCubeArray ica; uniform usamplerCubeArray uca;
uniform sampler2DRect r; uniform isampler2DRect ir; uniform usampler2DRect ur;
uniform sampler2DShadow s2s; uniform sampler2DArrayShadow a2s; uniform samplerCubeShadow cs;
uniform samplerCubeArrayShadow cas; uniform sampler2DRectShadow rs;
uniform ivec2 dyn;
const ivec2 offs[4] = ivec2[4](ivec2(-8, 7), ivec2(0), ivec2(7, -8), ivec2(1, 2));
out vec4 color;
void main()
{
    vec4 f = textureGather(s2, vec2(0)) + textureGather(s2, vec2(0), 3)
        + textureGather(a2, vec3(0)) + textureGather(a2, vec3(0), 1)
        + textureGather(c, vec3(1)) + textureGather(c, vec3(1), 2)
        + textureGather(ca, vec4(1)) + textureGather(ca, vec4(1), 0)
        + textureGather(r, vec2(0)) + textureGather(r, vec2(0), 1)
        + textureGatherOffset(s2, vec2(0), ivec2(1, -1)) + textureGatherOffset(s2, vec2(0), dyn, 2)
        + textureGatherOffset(a2, vec3(0), dyn) + textureGatherOffset(r, vec2(0), ivec2(1), 3)
        + textureGatherOffsets(s2, vec2(0), offs) + textureGatherOffsets(a2, vec3(0), offs, 1)
        + textureGatherOffsets(r, vec2(0), offs, 2);
    ivec4 i = textureGather(i2, vec2(0)) + textureGather(ia2, vec3(0), 1) + textureGather(ic, vec3(1))
        + textureGather(ica, vec4(1), 3) + textureGather(ir, vec2(0))
        + textureGatherOffset(i2, vec2(0), dyn) + textureGatherOffsets(ia2, vec3(0), offs);
    uvec4 u = textureGather(u2, vec2(0)) + textureGather(ua2, vec3(0), 1) + textureGather(uc, vec3(1))
        + textureGather(uca, vec4(1), 3) + textureGather(ur, vec2(0))
        + textureGatherOffset(u2, vec2(0), dyn, 1) + textureGatherOffsets(ur, vec2(0), offs);
    vec4 d = textureGather(s2s, vec2(0), 0.5) + textureGather(a2s, vec3(0), 0.5)
        + textureGather(cs, vec3(1), 0.5) + textureGather(cas, vec4(1), 0.5)
        + textureGather(rs, vec2(0), 0.5)
        + textureGatherOffset(s2s, vec2(0), 0.5, dyn) + textureGatherOffset(a2s, vec3(0), 0.5, ivec2(1))
        + textureGatherOffset(rs, vec2(0), 0.5, ivec2(-1))
        + textureGatherOffsets(s2s, vec2(0), 0.5, offs) + textureGatherOffsets(a2s, vec3(0), 0.5, offs)
        + textureGatherOffsets(rs, vec2(0), 0.5, offs);
    color = f + vec4(i) + vec4(u) + d;
}
