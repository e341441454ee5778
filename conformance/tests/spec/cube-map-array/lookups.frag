// [config]
// expect_result: pass
// glsl_version: 1.30
// require_extensions: GL_ARB_texture_cube_map_array
// [end config]
//
// ARB_texture_cube_map_array: the cube array samplers take a vec4 (direction
// and layer); samplerCubeArrayShadow takes the depth reference separately.
#version 130
#extension GL_ARB_texture_cube_map_array: require
uniform samplerCubeArray c;
uniform isamplerCubeArray ic;
uniform usamplerCubeArray uc;
uniform samplerCubeArrayShadow cs;
in vec4 p;
out vec4 color;
void main()
{
    ivec3 size = textureSize(c, 0) + textureSize(cs, 1);
    vec4 a = texture(c, p) + texture(c, p, 1.0) + textureLod(c, p, 2.0)
        + textureGrad(c, p, vec3(0.1), vec3(0.2));
    vec4 b = vec4(texture(ic, p)) + vec4(textureLod(uc, p, 0.0));
    float d = texture(cs, p, 0.5);
    color = a + b + vec4(d) + vec4(size, 0);
}
