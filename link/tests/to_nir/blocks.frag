#version 140
layout(std140) uniform Material {
    vec4 diffuse;
    bool lit;
    mat3 rot;
    float weights[4];
};
uniform Lights {
    vec4 colors[8];
    bvec2 mask;
} lights;
uniform int n;
out vec4 color;
void main() {
    vec4 c = diffuse * weights[n];
    if (lit && lights.mask.y)
        c += lights.colors[n] + vec4(rot[1], 0.0);
    color = c;
}
