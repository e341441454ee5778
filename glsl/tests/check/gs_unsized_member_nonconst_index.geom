#version 150
// gl_in[] is sized by the input primitive, its unsized gl_ClipDistance
// member is not: a non-constant index into the member is an error.
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
uniform int index;
void main()
{
  gl_Position = vec4(gl_in[index].gl_ClipDistance[index]);
  EmitVertex();
}
