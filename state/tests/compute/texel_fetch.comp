#version 430
// texelFetch in a compute shader (GLSL 4.30 §8.9.3) on four targets, and
// out-of-range fetches, which return 0 (GL 4.5 §8.17 with robust buffer
// access; rgl reads every out-of-range texel as 0).
layout(local_size_x = 4, local_size_y = 4) in;

uniform sampler1D t1d;
uniform sampler2D t2d;
uniform sampler3D t3d;
uniform sampler2DArray t2da;

layout(std430, binding = 0) buffer Texels {
    uvec4 texels[16];
    uvec4 outside[16];
};

// The four unorm8 channels of `c` as one word, red in the low byte.
uint pack8(vec4 c)
{
    uvec4 b = uvec4(round(clamp(c, 0.0, 1.0) * 255.0));
    return b.r | (b.g << 8) | (b.b << 16) | (b.a << 24);
}

void main()
{
    ivec2 p = ivec2(gl_LocalInvocationID.xy);
    uint i = gl_LocalInvocationIndex;
    texels[i] = uvec4(pack8(texelFetch(t1d, p.x + 4 * p.y, 0)),
                      pack8(texelFetch(t2d, p, 0)),
                      pack8(texelFetch(t3d, ivec3(p, 1), 0)),
                      pack8(texelFetch(t2da, ivec3(p, 2), 0)));
    outside[i] = uvec4(pack8(texelFetch(t2d, p + ivec2(4, 0), 0)),
                       pack8(texelFetch(t2d, p - ivec2(0, 4), 0)),
                       pack8(texelFetch(t2d, p, 3)),
                       pack8(texelFetch(t3d, ivec3(p, 2), 0)));
}
