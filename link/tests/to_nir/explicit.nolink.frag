#version 330
layout(location = 0) out vec4 color;
layout(location = 2) out vec4 extra;
in vec4 v;
uniform sampler2D s;
void main() {
    color = texture(s, v.xy) + gl_FragCoord;
    extra = v;
}
