#version 130
// Without GLSL 4.30 or the extension, `buffer` and the memory qualifiers are
// not keywords.
buffer B { vec4 a; };
void main()
{
}
