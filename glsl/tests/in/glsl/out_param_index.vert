#version 120
// An out/inout argument's l-value is evaluated before the call: the element
// written back is the one the index named at the call (`lvalue_index`
// temporaries), even when the callee changes the index variable.
uniform int u;
void reset(inout int i, inout float f, out vec2 v)
{
    i = 0;
    f = 1.0;
    v = vec2(2.0);
}
void main()
{
    float fa[4] = float[](0.0, 0.0, 0.0, 0.0);
    vec2 va[3];
    int i = u;
    int j = u + 1;
    reset(i, fa[i], va[j].yx);
    gl_Position = vec4(fa[1], va[2], fa[3]);
}
