#version 110
uniform float alpha;
uniform sampler2D tex;
varying vec2 uv;

float first_positive(vec4 v)
{
    for (int i = 0; i < 4; i++) {
        if (v[i] > 0.0)
            return v[i];
    }
    return -1.0;
}

void main()
{
    vec4 c = texture2D(tex, uv);
    if (c.a < alpha)
        discard;
    if (first_positive(c) < 0.0) {
        gl_FragColor = vec4(1.0, 0.0, 1.0, 1.0);
        return;
    }
    gl_FragColor = c;
}
