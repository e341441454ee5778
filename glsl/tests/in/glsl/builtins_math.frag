#version 120
uniform vec3 a;
uniform vec3 b;
uniform float t;

void main()
{
    vec3 r = sin(a) + cos(b) + tan(a) + asin(t) + acos(t) + atan(t) + atan(a.x, b.x);
    r += pow(a, b) + exp(a) + log(b) + exp2(a) + log2(b) + sqrt(a) + inversesqrt(b);
    r += abs(a) + sign(b) + floor(a) + ceil(b) + fract(a) + mod(a, 2.0) + mod(a, b);
    r += min(a, b) + max(a, 1.0) + clamp(a, 0.0, 1.0) + mix(a, b, t) + mix(a, b, b);
    r += step(0.5, a) + smoothstep(0.0, 1.0, b);
    float s = length(a) + distance(a, b) + dot(a, b);
    r += cross(a, b) + normalize(a) + faceforward(a, b, a) + reflect(a, b) + refract(a, b, t);
    r += radians(a) + degrees(b);
    bvec3 c = lessThan(a, b);
    bool any_c = any(c) && all(not(c)) || any(equal(a, b));
    gl_FragColor = vec4(r, s + (any_c ? 1.0 : 0.0));
}
