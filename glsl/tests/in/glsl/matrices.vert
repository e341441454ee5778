#version 120
uniform mat4 a;
uniform mat4 b;
uniform mat2x3 c;
uniform vec4 v;
attribute vec3 w;

void main()
{
    mat4 ab = a * b;
    vec4 av = a * v;
    vec2 wc = w * c;
    mat4 k = matrixCompMult(a, b);
    mat3x2 ct = transpose(c);
    mat3 m3 = mat3(a);
    mat2 m2 = mat2(1.0, 2.0, 3.0, 4.0);
    mat2 d2 = mat2(3.0);
    mat4 cols = mat4(v, v, v, v);
    mat3x4 op = outerProduct(v, w);
    bool same = a == b;
    mat4 neg = -a + 2.0 * b - b / 2.0;
    gl_Position = ab * av + k[0] + vec4(ct[0], wc) + vec4(m3[0], m2[1][1] + d2[0][0])
        + cols[2] + op[0] + neg[3] + (same ? v : vec4(0.0));
}
