#version 120
attribute vec4 position;
uniform vec4 offset;

float square(float x);

float square(float x)
{
    return x * x;
}

float square(int x)
{
    return float(x * x);
}

void split(in vec4 v, out vec2 lo, out vec2 hi)
{
    lo = v.xy;
    hi = v.zw;
}

void accumulate(inout vec4 acc, const in float k)
{
    acc += vec4(k);
}

vec4 pick(vec4 a, vec4 b, bool first)
{
    if (first)
        return a;
    return b;
}

void main()
{
    vec2 lo;
    vec2 hi;
    split(position, lo, hi);
    vec4 acc = vec4(square(lo.x), square(2), hi);
    accumulate(acc, square(hi.y));
    gl_Position = pick(acc, offset, lo.y > 0.0);
}
