#version 130
uniform sampler2D tex;
in vec2 uv;
out vec4 color;
const float k[2] = float[2](1.0, 2.5e-3);
struct Light { vec3 pos; float radius[2]; };
uniform Light lights[4];
float f(in float x, out int y, float z[2]);
void g(void) {}
void main() {
    int i = 0x10 + 017 - 3;
    uint u = 4u;
    bool b = !true;
    color = texture(tex, uv) * vec4(lights[0].pos.xyz, 1.0);
    for (int j = 0; j < 4; j++) { if (j == 2) continue; else break; }
    while (i > 0) i--;
    do { i += 2; } while (i < 10);
    switch (i) { case 1: i = 2; break; default: discard; }
    float a = b ? 1.0 : 2.0, c = float(k.length());
    i <<= 1; i >>= 1; i &= 3; i |= 4; i ^= 5; i %= 3;
    color.x = -color.y + (+color.z) * ~i / 2 % 3;
    return;
}
