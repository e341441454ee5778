#version 150
#extension GL_ARB_shader_storage_buffer_object : require
// GLSL 4.30 §4.1.9: desktop GLSL implicitly sizes an unsized member of a
// shader storage block that is not its last member, so it may only be indexed
// with constant expressions; the last member is runtime-sized and takes any
// integer index. As in Mesa, a variable index is a compile error on a member of
// an unnamed block (`x[i]`) but not through an instance (`named.s[i]`, which
// the linker sizes from the constant index `named.s[1]`).
buffer Named {
    vec4 s[];
    vec4 tail[];
} named;
buffer Unnamed {
    float x[];
    float last[];
};
uniform int i;
out vec4 color;
void main()
{
    color = named.s[1] + named.tail[i] + vec4(x[2], last[i], 0.0, 0.0);
    color += named.s[i];
    color.x += x[i];
}
