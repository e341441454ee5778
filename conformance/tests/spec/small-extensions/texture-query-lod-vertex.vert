// [config]
// expect_result: fail
// glsl_version: 1.30
// require_extensions: GL_ARB_texture_query_lod
// [end config]
//
// textureQueryLOD exists only in fragment shaders.
#version 130
#extension GL_ARB_texture_query_lod : require
uniform sampler2D s;
in vec2 p;
void main()
{
    gl_Position = vec4(textureQueryLOD(s, p), 0.0, 1.0);
}
