#version 330
uniform sampler2DMS ms;
uniform samplerBuffer buf;
uniform sampler2DRect rect;
uniform sampler2DArrayShadow arr_shadow;
in vec2 uv;
layout(location = 0) out vec4 color;

void main()
{
    vec4 a = texelFetch(ms, ivec2(uv), 3);
    vec4 b = texelFetch(buf, int(uv.x));
    vec4 c = texture(rect, uv * 64.0);
    float d = texture(arr_shadow, vec4(uv, 1.0, 0.5));
    int size = textureSize(buf);
    color = a + b + c + vec4(d, float(size), 0.0, 0.0);
}
