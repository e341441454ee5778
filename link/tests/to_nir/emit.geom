#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 6) out;
in vec4 vcolor[];
in VertexData { vec2 uv; flat int layer; } vin[];
out vec4 gcolor;
out GData { vec2 uv; } gout;
void main() {
    for (int i = 0; i < gl_in.length(); i++) {
        gl_Position = gl_in[i].gl_Position + vec4(gl_in[i].gl_PointSize);
        gcolor = vcolor[i];
        gout.uv = vin[i].uv + vec2(float(gl_PrimitiveIDIn + vin[i].layer));
        gl_PrimitiveID = gl_PrimitiveIDIn;
        gl_Layer = vin[i].layer;
        EmitVertex();
    }
    EndPrimitive();
}
