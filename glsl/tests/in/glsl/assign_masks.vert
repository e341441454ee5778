#version 120
attribute vec4 a;
uniform mat3 m;
struct S { vec2 p; float q[2]; };
uniform S s_in;

void main()
{
    vec4 v = vec4(0.0);
    v.xz = a.yw;
    v.w = a.x;
    v.zyx = a.xyz;
    mat3 copy = m;
    copy[1] = vec3(1.0);
    copy[2].y = 3.0;
    float arr[2];
    arr[0] = 1.0;
    arr[1] = v.x;
    float arr2[2] = arr;
    S s = s_in;
    s.p.y = arr2[1];
    gl_Position = v + vec4(copy[1], s.p.y);
}
