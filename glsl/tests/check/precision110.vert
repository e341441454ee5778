#version 110
precision mediump float;
void main() { gl_Position = vec4(0.0); }
