#version 130
// Initializer lists need GLSL 4.20 or ARB_shading_language_420pack.
vec2 v = { 1.0, 2.0 };
void main() { }
