#version 130
uniform mat4 mvp;
in vec4 pos;
in vec3 color;
out vec3 v_color;
void main() {
    gl_Position = mvp * pos;
    v_color.xz = color.zx;
    v_color.y = 1.0;
}
