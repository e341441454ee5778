// [config]
// expect_result: fail
// glsl_version: 4.00
// [end config]
//
// GLSL 4.00 §6.1.2: a function associated with a subroutine type must match
// its declaration, including the parameter qualifiers: a call through the
// type writes back `x`, which `fill` never assigns as an output. llvmpipe
// (Mesa 22.3) compares the parameter types only and accepts this.
#version 400
subroutine void fill_t(out float x);
subroutine(fill_t) void fill(in float x) {}
void main() {}
