#version 400
// GLSL 4.00 §8.9.1 has textureQueryLod (no extension needed); the
// ARB_texture_query_lod spelling textureQueryLOD needs the extension.
uniform sampler2DArray s;
in vec2 p;
out vec4 color;
void main()
{
    color = vec4(textureQueryLod(s, p), textureQueryLOD(s, p));
}
