#version 130
uniform float f;
uniform int i;
uniform vec3 v;
uniform vec3 w;
uniform bool b;
out vec4 color;

void main()
{
    bool lt = f < 1.0;
    bool gt = f > 1.0;
    bool le = i <= 2;
    bool ge = i >= 2;
    bool eq = v == w;
    bool ne = v != w;
    bool x = (lt && gt) || (le ^^ ge) || !b;
    float t = x ? f : 2.0;
    vec3 sel = eq ? v : w;
    color = vec4(sel, t) + (ne ? vec4(1.0) : vec4(0.0));
}
