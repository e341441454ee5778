// [config]
// expect_result: fail
// glsl_version: 4.00
// [end config]
//
// GLSL 4.00 §4.3.9: a subroutine uniform's type is a subroutine type
// (`subroutine uniform subroutineTypeName name;`). llvmpipe (Mesa 22.3)
// accepts this declaration.
#version 400
subroutine uniform float u;
void main() { gl_Position = vec4(0.0); }
