// [config]
// expect_result: pass
// glsl_version: 1.40
// check_link: false
// require_extensions: GL_ARB_compatibility
// [end config]
//
// GL_ARB_compatibility in GLSL 1.40: gl_FragColor, gl_FragData and the
// fixed-function inputs gl_Color and gl_SecondaryColor, gl_FogFragCoord.
#version 140
#extension GL_ARB_compatibility: require
void main()
{
    gl_FragData[0] = gl_Color + gl_SecondaryColor * gl_FogFragCoord;
}
