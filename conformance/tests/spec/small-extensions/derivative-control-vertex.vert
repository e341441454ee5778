// [config]
// expect_result: fail
// glsl_version: 1.50
// require_extensions: GL_ARB_derivative_control
// [end config]
//
// ARB_derivative_control's functions, like dFdx, exist only in fragment
// shaders.
#version 150
#extension GL_ARB_derivative_control : require
in vec4 p;
void main()
{
    gl_Position = vec4(dFdxFine(p.x));
}
