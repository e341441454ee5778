#version 330
layout(location = 0) in vec3 position;
layout(location = 3) in vec2 uv;
out vec2 v_uv;
uniform mat4 mvp;

void main()
{
    v_uv = uv;
    gl_Position = mvp * vec4(position, 1.0);
}
