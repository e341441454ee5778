#version 150
// Interface blocks.
uniform Block { vec4 a; sampler2D s; } inst;
uniform Block { vec4 b; };
uniform Other { vec4 c; };
vec4 c;
uniform Arr { vec4 d; } arr[];
uniform Arr2 { vec4 e; }[2];
in InBlock { vec4 f; } ib;
out OutBlock { vec4 g; };
void main()
{
    g = inst.a;
    gl_Position = c;
}
