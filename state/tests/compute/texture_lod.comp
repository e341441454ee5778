#version 430
// Explicit- and implicit-LOD lookups in a compute shader. Compute has no
// derivatives: implicit LOD is only defined in fragment shaders (GLSL 4.30
// §8.9), and like Mesa rgl samples at LOD 0 elsewhere.
layout(local_size_x = 4, local_size_y = 4) in;

uniform sampler2D tex;
uniform samplerCube cube;

layout(std430, binding = 1) buffer Lookups {
    uvec4 lookups[16];
    ivec4 sizes;
};

uint pack8(vec4 c)
{
    uvec4 b = uvec4(round(clamp(c, 0.0, 1.0) * 255.0));
    return b.r | (b.g << 8) | (b.b << 16) | (b.a << 24);
}

void main()
{
    // The centre of texel (x, y) of level 0.
    vec2 uv = (vec2(gl_LocalInvocationID.xy) + 0.5) / 4.0;
    lookups[gl_LocalInvocationIndex] = uvec4(pack8(textureLod(tex, uv, 0.0)),
                                             pack8(textureLod(tex, uv, 1.0)),
                                             pack8(texture(tex, uv)),
                                             pack8(textureLod(cube, vec3(-1.0, 0.0, 0.0), 0.0)));
    if (gl_LocalInvocationIndex == 0u)
        sizes = ivec4(textureSize(tex, 0), textureSize(tex, 1));
}
