// [config]
// expect_result: pass
// glsl_version: 4.30
// [end config]
//
// GLSL 4.30 has compute shaders, shader storage blocks, arrays of arrays and
// explicit uniform locations in core, with no #extension.
#version 430
layout(local_size_x = 2) in;
layout(std430, binding = 1) buffer Data { uint values[]; };
layout(location = 3) uniform uint scale;
shared uint total;
void main()
{
    uint grid[2][2] = uint[2][2](uint[2](1u, 2u), uint[2](3u, 4u));
    atomicAdd(total, grid[1][0] * scale);
    barrier();
    values[gl_LocalInvocationIndex] = total;
}
