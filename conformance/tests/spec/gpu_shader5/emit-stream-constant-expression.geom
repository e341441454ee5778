// [config]
// expect_result: pass
// glsl_version: 1.50
// require_extensions: GL_ARB_gpu_shader5
// check_link: true
// [end config]
//
// A constant expression (a `const` variable and arithmetic on it) is a
// valid stream argument.
#version 150
#extension GL_ARB_gpu_shader5 : require
layout(points) in;
layout(points, max_vertices = 2) out;
const int s = 1;
void main()
{
    gl_Position = gl_in[0].gl_Position;
    EmitStreamVertex(s - 1);
    EmitStreamVertex(s + 2);
    EndStreamPrimitive(s);
}
