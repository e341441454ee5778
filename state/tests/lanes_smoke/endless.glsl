// An endless fragment loop: the draw fails with GL_INVALID_OPERATION and a budget
// error; the framebuffer keeps the clear color and the process goes on.
// vertex
#version 130
in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
// fragment
#version 130
uniform vec4 tint;
void main() {
  float x = 0.0;
  while (tint.x >= 0.0) x += 1.0;
  gl_FragColor = vec4(x);
}
