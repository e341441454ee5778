#version 150
// Each member of an instance array of a block is an array of the instance
// count: `Blk ifc[2]` places `ifc[*].a` on two locations, then `ifc[*].b`.
in vec4 p;
out Blk {
    flat float a;
    vec2 b;
} ifc[2];
void main()
{
    gl_Position = p;
    ifc[0].a = 1.0;
    ifc[1].a = 2.0;
    ifc[0].b = p.xy;
    ifc[1].b = p.zw;
}
