// [config]
// expect_result: fail
// glsl_version: 3.10 es
// [end config]
//
// GLSL ES 3.10 §4.1.9: "If an array is declared as the last member of a
// shader storage block and the size is not specified at compile-time, it is
// sized at run-time. In all other cases, arrays are sized only at
// compile-time." An unsized member that is not last is a compile error in ES
// even when it is indexed with constants.
#version 310 es
layout(local_size_x = 1) in;
buffer B {
    float values[];
    int count;
};
void main()
{
    count = int(values[1]);
}
