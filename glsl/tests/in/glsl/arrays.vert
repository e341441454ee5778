#version 120
uniform vec4 colors[4];
uniform int index;
attribute vec4 position;
varying vec4 v_color;

void main()
{
    float weights[3] = float[3](0.25, 0.5, 0.25);
    float implicit[] = float[](1.0, 2.0);
    vec4 sum = colors[0] * weights[0];
    sum += colors[index] * weights[1];
    for (int i = 0; i < 3; i++)
        sum += colors[i + 1] * weights[i];
    v_color = sum + vec4(float(weights.length() + implicit.length()));
    gl_Position = position;
}
