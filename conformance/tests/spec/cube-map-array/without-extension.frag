// [config]
// expect_result: fail
// glsl_version: 1.30
// require_extensions: GL_ARB_texture_cube_map_array
// [end config]
//
// Before GLSL 4.00 the cube array types need the extension.
#version 130
uniform samplerCubeArray c;
out vec4 color;
void main()
{
    color = texture(c, vec4(0.0));
}
