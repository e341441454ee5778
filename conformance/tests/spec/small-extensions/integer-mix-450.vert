// [config]
// expect_result: pass
// glsl_version: 4.50
// [end config]
//
// GLSL 4.50 §8.3: mix with a bvec selector on genIType, genUType and
// genBType is core.
#version 450
uniform ivec3 a, b;
uniform uvec3 c, d;
uniform bvec3 s;
void main()
{
    ivec3 i = mix(a, b, s);
    uvec3 u = mix(c, d, s);
    bvec3 v = mix(s, not(s), s);
    gl_Position = vec4(vec3(i) + vec3(u), float(all(v)));
}
