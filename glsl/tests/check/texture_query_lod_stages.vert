#version 400
#extension GL_ARB_texture_query_lod : enable
// textureQueryLOD and GLSL 4.00's textureQueryLod exist only in fragment
// shaders (they describe the implicit derivatives of a lookup).
uniform sampler2D s;
in vec2 p;
void main()
{
    gl_Position = vec4(textureQueryLOD(s, p), textureQueryLod(s, p));
}
