// [config]
// expect_result: pass
// glsl_version: 4.00
// check_link: true
// [end config]
//
// GLSL 4.00 §4.4.2.1: "layout(stream = 1) out;" sets the default stream of
// the declarations that follow; a block member may repeat its block's
// stream. Stream 0 is the initial default.
#version 400
layout(points) in;
layout(points, max_vertices = 4) out;
out vec4 s0;
layout(stream = 1) out;
out vec4 s1;
layout(stream = 2) out vec4 s2;
layout(stream = 3) out B3 {
    float a;
    layout(stream = 3) vec4 b;
};
void main()
{
    s0 = vec4(0.0);
    gl_Position = gl_in[0].gl_Position;
    EmitStreamVertex(0);
    EndStreamPrimitive(0);
    s1 = vec4(1.0);
    EmitStreamVertex(1);
    s2 = vec4(2.0);
    EmitStreamVertex(2);
    a = 3.0;
    b = vec4(3.0);
    EmitStreamVertex(3);
    EndStreamPrimitive(3);
}
