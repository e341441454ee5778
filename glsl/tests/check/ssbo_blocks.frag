#version 130
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_uniform_buffer_object : require
// ARB_shader_storage_buffer_object / GLSL 4.30 §4.3.7, §4.10: buffer
// blocks, std430, memory qualifiers and their read/write rules.
layout(std430, binding = 2) buffer Counts {
    readonly int total;
    writeonly int result;
    coherent volatile restrict uint flags;
    int values[];
};
layout(std140) buffer Named {
    readonly vec4 r;
    writeonly vec4 w;
} named;
readonly buffer Whole { float whole; };
layout(std430) uniform NotStorage { vec4 x; };
buffer float outside;
coherent float notBuffer;
buffer Bad { int open[]; int after; };
buffer Sampling { sampler2D s; };
out vec4 color;
void main()
{
    result = total;              // fine: write a writeonly, read a readonly
    total = 1;                   // readonly
    int r0 = result;             // writeonly read
    named.w = named.r;           // fine
    named.r = vec4(0.0);         // readonly member
    color = named.w;             // writeonly member read
    whole = 1.0;                 // block-level readonly
    result += 1;                 // `op=` reads the writeonly target
    atomicAdd(values[3], 1);
    atomicOr(flags, 1u);
    values[total] = values[-1];  // dynamic index fine, negative constant not
    int n = values.length();     // runtime length: not implemented by rgl
}
