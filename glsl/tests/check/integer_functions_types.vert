#version 130
#extension GL_MESA_shader_integer_functions : require
// GLSL 4.00 §8.8: offset and bits are int; value and insert share a type;
// there are no float overloads.
uniform uint u;
uniform float f;
void main()
{
    uint a = bitfieldExtract(u, 1u, f);
    int b = bitCount(f);
    uint c = bitfieldInsert(u, 1, 0, 1);
    gl_Position = vec4(0.0);
}
