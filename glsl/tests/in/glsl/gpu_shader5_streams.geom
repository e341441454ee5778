#version 150
// ARB_gpu_shader5 in a GLSL 1.50 geometry shader: invocations, output
// streams (the default set by `layout(stream = N) out;` and per variable),
// EmitStreamVertex/EndStreamPrimitive (stream 0 becomes emit-vertex /
// end-primitive; the other streams are not rasterized), precise and sample.
#extension GL_ARB_gpu_shader5 : require
layout(triangles, invocations = 3) in;
layout(points, max_vertices = 4) out;
precise sample out vec4 s0;
layout(stream = 2) out;
out float s2;
layout(stream = 1) out vec2 s1;
void main()
{
    precise float p = fma(gl_in[0].gl_Position.x, 2.0, float(gl_InvocationID));
    s0 = vec4(p);
    EmitStreamVertex(0);
    EndStreamPrimitive(0);
    s1 = vec2(p);
    EmitStreamVertex(1);
    s2 = p;
    EmitStreamVertex(2);
    EndStreamPrimitive(2);
}
