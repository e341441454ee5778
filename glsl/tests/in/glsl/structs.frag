#version 120
struct Light {
    vec3 direction;
    vec3 color;
};
struct Material {
    Light lights[2];
    float shininess;
};
uniform Material material;
uniform Light extra;
varying vec3 normal;

void main()
{
    Light l = Light(vec3(0.0, 0.0, 1.0), vec3(1.0));
    Material m = material;
    m.lights[1] = l;
    vec3 result = vec3(0.0);
    for (int i = 0; i < 2; i++)
        result += max(dot(normal, m.lights[i].direction), 0.0) * m.lights[i].color;
    bool same = l == extra;
    gl_FragColor = vec4(result * m.shininess, same ? 1.0 : 0.0);
}
