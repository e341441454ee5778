#version 150
struct Light { vec3 dir; float power; bool on; };
struct Scene { Light lights[2]; mat3 basis; };
uniform Scene scene;
uniform Light lamp;
uniform mat4 m4;
uniform mat2x3 m23;
uniform int idx;
in vec4 pos;
out vec4 v;
const vec2 offsets[3] = vec2[3](vec2(0.0, 1.0), vec2(1.0, 0.0), vec2(0.5, 0.5));
void main() {
    Scene s = scene;
    Light l = lamp;
    Light copy = l;
    s.lights[1] = copy;
    s.lights[idx].power = 2.0;
    mat4 m = m4;
    m[2] = pos;
    m[idx][1] = 3.0;
    mat3 b = s.basis * mat3(2.0);
    mat2x3 k = m23 + m23;
    mat4 ident = mat4(1.0);
    vec3 d = b * s.lights[0].dir + k * vec2(1.0, 2.0) + vec3(1.0, 2.0, 3.0) * b;
    vec2 o = offsets[idx];
    bool same = l == copy && m == ident;
    float arr[4];
    arr[idx] = d.x;
    float other[4] = arr;
    gl_Position = m * pos + vec4(d, o.x) + vec4(other[1]) + (same ? vec4(1.0) : vec4(0.0));
    if (s.lights[1].on)
        gl_Position *= transpose(ident) * inverse(m4)[0].x * determinant(m4);
    v = vec4(outerProduct(d, d)[1], 1.0) + vec4(matrixCompMult(m, ident)[3]);
}
