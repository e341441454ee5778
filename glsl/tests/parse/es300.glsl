#version 300 es
precision mediump float;
layout(location = 0) out highp vec4 color;
in lowp vec3 v;
uniform highp sampler2DArray arr;
flat in uint idx;
void main() {
    color = vec4(v, float(idx)) + texture(arr, vec3(0.0));
}
