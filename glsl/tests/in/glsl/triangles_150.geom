#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in vec3 v_color[];
out vec3 g_color;

void main()
{
    for (int i = 0; i < gl_in.length(); i++) {
        g_color = v_color[i];
        gl_Position = gl_in[i].gl_Position;
        gl_PrimitiveID = gl_PrimitiveIDIn;
        EmitVertex();
    }
    EndPrimitive();
}
