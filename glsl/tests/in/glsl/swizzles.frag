#version 110
uniform vec4 c;
uniform vec2 t;

void main()
{
    vec4 a = c.wzyx;
    vec3 b = c.rgb;
    vec2 s = t.ts;
    vec4 rep = t.xxyy;
    float one = c.a;
    vec2 nested = c.zyx.yz;
    gl_FragColor = a + vec4(b, one) + vec4(s, nested) + rep + c.stpq;
}
