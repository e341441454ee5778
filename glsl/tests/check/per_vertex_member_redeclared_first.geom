#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
out float gl_ClipDistance[4];
out gl_PerVertex { vec4 gl_Position; };
void main() { }
