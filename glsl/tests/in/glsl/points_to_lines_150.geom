#version 150
layout(points) in;
layout(line_strip, max_vertices = 2) out;
uniform float len;

void main()
{
    vec4 p = gl_in[0].gl_Position;
    gl_Position = p;
    EmitVertex();
    gl_Position = p + vec4(len, 0.0, 0.0, 0.0);
    EmitVertex();
    EndPrimitive();
}
