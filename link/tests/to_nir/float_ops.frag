#version 130
uniform vec4 a;
uniform vec4 b;
uniform float s;
out vec4 color;
void main() {
    vec4 r = a + b * s - a / b;
    r += -a + abs(b) + sign(a) + floor(a) + ceil(b) + fract(a) + trunc(b) + round(a);
    r += sqrt(a) + inversesqrt(b) + exp(a) + log(b) + exp2(a) + log2(b) + pow(a, b);
    r += sin(a) + cos(b) + tan(a) + asin(a) + acos(b) + atan(a) + atan(a, b);
    r += min(a, b) + max(a, s) + clamp(a, 0.0, 1.0) + mix(a, b, s) + step(a, b) + smoothstep(0.0, 1.0, a);
    r += mod(a, b) + mod(a, s);
    r.x += dot(a, b) + length(a.xyz) + distance(a.xy, b.xy);
    r.xyz += cross(a.xyz, b.xyz) + normalize(b.xyz) + reflect(a.xyz, b.xyz) + refract(a.xyz, b.xyz, s) + faceforward(a.xyz, b.xyz, a.xyz);
    r += radians(a) + degrees(b) + sinh(a) + cosh(b) + tanh(a);
    r += dFdx(a) + dFdy(b) + fwidth(a);
    color = r;
}
