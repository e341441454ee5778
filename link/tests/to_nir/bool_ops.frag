#version 130
uniform bool flag;
uniform bvec2 flags;
uniform vec4 a;
uniform vec4 b;
uniform ivec3 ia;
uniform ivec3 ib;
out vec4 color;
void main() {
    bvec4 lt = lessThan(a, b);
    bvec4 le = lessThanEqual(a, b);
    bvec4 gt = greaterThan(a, b);
    bvec4 ge = greaterThanEqual(a, b);
    bvec4 eq = equal(a, b);
    bvec4 ne = notEqual(a, b);
    bvec3 ieq = equal(ia, ib);
    bool x = any(lt) && all(le) || !any(gt) ^^ all(not(ge));
    bool y = a == b || ia != ib || eq == ne || flag || flags.y;
    bool z = isnan(a.x) || isinf(b.y);
    float f = x ? 1.0 : 0.0;
    color = vec4(f, float(y), float(z), float(ieq.x)) + vec4(ivec4(bvec4(x, y, z, true)));
    color = mix(color, a, lt);
    color.x += float(bool(a.x)) + float(bool(ia.x));
}
