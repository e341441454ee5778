#version 300 es
precision mediump float;
uniform highp vec4 tint;
uniform lowp sampler2D tex;
in mediump vec2 uv;
flat in highp int layer;
layout(location = 0) out vec4 color;
layout(location = 1) out highp vec4 extra;

void main()
{
    lowp vec4 base = texture(tex, uv);
    color = base * tint;
    extra = vec4(float(layer));
}
