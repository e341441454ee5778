// [config]
// expect_result: pass
// glsl_version: 3.10 es
// [end config]
//
// GLSL ES 3.10 has compute shaders, shader storage blocks and arrays of
// arrays; a compute shader needs no float precision statement (ES 3.10
// §4.7.4 predeclares highp for int and float in the compute stage).
#version 310 es
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer Out { float data[]; };
void main()
{
    float m[2][2];
    m[0][1] = 1.5;
    data[gl_GlobalInvocationID.x] = m[0][1];
}
