#version 130
uniform int i;
uniform uint u;
uniform ivec2 iv;
uniform uvec3 uv;
out vec4 color;

void main()
{
    int a = (i & 0xff) | (i ^ 3);
    int b = ~i;
    int c = i << 2;
    int d = i >> 1;
    uint e = (u << 3u) >> i;
    ivec2 f = iv & ivec2(1, 2);
    uvec3 g = uv | 7u;
    ivec2 h = iv << 1;
    color = vec4(float(a + b + c + d), float(e), float(f.x + h.y), float(g.z));
}
