// [config]
// expect_result: pass
// glsl_version: 4.00
// [end config]
//
// GLSL 4.00 §6.1.2: subroutines are core in 4.00. A subroutine type may have
// out parameters and an array return type; calls go through the uniform.
#version 400
subroutine float[2] pair_t(vec2 p, out int n);
subroutine uniform pair_t pick;
subroutine(pair_t) float[2] first(vec2 p, out int n) { n = 1; return float[2](p.x, p.y); }
subroutine(pair_t) float[2] second(vec2 p, out int n) { n = 2; return float[2](p.y, p.x); }
out vec4 color;
void main() {
  int n;
  float r[2] = pick(gl_FragCoord.xy, n);
  color = vec4(r[0], r[1], float(n), 1.0);
}
