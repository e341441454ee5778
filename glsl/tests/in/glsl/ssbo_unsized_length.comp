#version 430
// GLSL 4.30 §4.1.9: .length() of a runtime-sized array in a shader storage
// block is an int computed when the shader runs (ssbo_unsized_array_length);
// a sized array's length stays a constant.
layout(local_size_x = 1) in;
struct S { vec3 a; float b; };
layout(std430, binding = 0) buffer B { uint n; vec4 pad; uint data[]; };
layout(std430, binding = 1) buffer C { float fixed_len[3]; S s[]; } blocks[2];
void main()
{
    n = uint(data.length());
    blocks[1].fixed_len[0] = float(blocks[1].s.length());
    blocks[0].fixed_len[1] = float(blocks[0].fixed_len.length());
}
