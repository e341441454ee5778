// A gradient from a varying and a uniform tint.
// uniform tint 1.0 0.5 0.25 1.0
// vertex
#version 130
in vec2 pos;
out vec2 uv;
void main() { gl_Position = vec4(pos, 0.0, 1.0); uv = pos * 0.5 + 0.5; }
// fragment
#version 130
in vec2 uv;
uniform vec4 tint;
void main() {
  float s = 0.0;
  for (int i = 0; i < 4; i++) s += uv.x * 0.25;
  gl_FragColor = vec4(s, uv.y, 1.0, 1.0) * tint;
}
