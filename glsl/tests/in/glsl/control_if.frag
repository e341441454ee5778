#version 110
uniform float x;
uniform bool flag;

void main()
{
    vec4 c = vec4(0.0);
    if (x < 0.0)
        c.r = 1.0;
    else if (x < 1.0)
        c.g = 1.0;
    else {
        if (flag)
            c.b = 1.0;
        c.a = x;
    }
    if (flag) {
    }
    gl_FragColor = c;
}
