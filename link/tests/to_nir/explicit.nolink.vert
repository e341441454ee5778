#version 330
layout(location = 3) in vec4 pos;
in vec2 uv;
out vec4 v;
void main() {
    gl_Position = pos;
    v = vec4(uv, 0.0, 1.0);
}
