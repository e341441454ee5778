#version 140
// Matrix layouts reach the NIR struct fields: the default `layout(row_major) uniform;`
// is folded into the first block's fields (an explicit column_major stays), a struct
// member inherits (its own fields print no layout), and a row_major block member of
// an instanced column-major block keeps its qualifier.
layout(row_major) uniform;
struct S {
    mat2x3 n;
    float f;
};
uniform Rows {
    mat3x4 m;
    layout(column_major) mat2 c;
    mat4 arr[2];
    S s;
};
layout(column_major) uniform Cols {
    mat3 plain;
    layout(row_major) S t;
} cols;
uniform int i;
out vec4 color;
void main() {
    S copy = cols.t;
    color = m[i] + vec4(c[1], arr[1][i].xy) + vec4(s.n[i], s.f)
        + vec4(copy.n[1] * cols.plain[i][2], m[2][i]);
}
