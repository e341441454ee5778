#version 330
in vec4 v;
flat in uvec2 packed;
layout(location = 1) out vec4 other;
out vec4 color;
void main() {
    vec4 c = v;
    uint p = packed.x + packed.y;
    vec4 ipart;
    c += modf(v, ipart) + ipart;
    c.w += noise1(v.x);
    c = any(isnan(c)) ? vec4(0.0) : c;
    int x = int(c.x);
    switch (x) {
        case 0: c.y = 1.0; break;
        case 1:
        case 2: c.z = 2.0;
        default: c.w = float(p);
    }
    color = c;
    other = -c;
}
