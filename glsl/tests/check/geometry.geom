#version 150
// Geometry shader input sizing.
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in vec4 a[];
in vec4 b[4];
in vec4 notarray;
layout(lines) in;
void main()
{
    gl_Position = a[0] + b[0] + notarray;
    EmitVertex();
    EndPrimitive();
}
