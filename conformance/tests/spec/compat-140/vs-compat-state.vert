// [config]
// expect_result: pass
// glsl_version: 1.40
// check_link: false
// require_extensions: GL_ARB_compatibility
// [end config]
//
// GL_ARB_compatibility in GLSL 1.40: the built-in state uniforms
// (gl_LightSource, gl_FrontMaterial, gl_NormalMatrix, gl_ClipPlane, gl_Fog)
// and attributes (gl_Normal, gl_MultiTexCoord1) are declared.
#version 140
#extension GL_ARB_compatibility: require
void main()
{
    vec3 n = gl_NormalMatrix * gl_Normal;
    vec4 c = gl_FrontMaterial.diffuse * gl_LightSource[0].diffuse * max(dot(n, vec3(0.0, 0.0, 1.0)), 0.0);
    gl_FrontColor = c + gl_Fog.color * 0.0 + gl_MultiTexCoord1 * 0.0;
    gl_ClipVertex = gl_ModelViewMatrix * gl_Vertex + gl_ClipPlane[0] * 0.0;
    gl_Position = ftransform();
}
