// [config]
// expect_result: pass
// glsl_version: 1.50
// check_link: false
// [end config]
//
// GLSL 1.50 §4.3.3: the matrix functions of 1.40/1.50 (inverse,
// determinant, outerProduct) fold in constant expressions.
#version 150
const float det = determinant(mat2(1.0, 2.0, 3.0, 4.0));       // -2
const mat2 inv = inverse(mat2(2.0, 0.0, 0.0, 4.0));            // diag(0.5, 0.25)
const mat2 op = outerProduct(vec2(1.0, 2.0), vec2(3.0, 4.0));  // [[3,6],[4,8]]
float check_det[det == -2.0 ? 1 : -1];
float check_inv[inv[0][0] == 0.5 && inv[1][1] == 0.25 && inv[1][0] == 0.0 ? 1 : -1];
float check_op[op[0] == vec2(3.0, 6.0) && op[1] == vec2(4.0, 8.0) ? 1 : -1];
out vec4 color;
void main() { color = vec4(det); }
