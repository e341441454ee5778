// [config]
// expect_result: fail
// glsl_version: 1.30
// require_extensions: GL_ARB_texture_cube_map_array
// [end config]
//
// P of a samplerCubeArrayShadow lookup already holds four components, so the
// depth reference cannot ride in it: texture(cs, vec4) has no overload.
#version 130
#extension GL_ARB_texture_cube_map_array: require
uniform samplerCubeArrayShadow cs;
in vec4 p;
out vec4 color;
void main()
{
    color = vec4(texture(cs, p));
}
