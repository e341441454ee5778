#version 110
#if 1
#error this shader is not supposed to compile
#endif
void main() { gl_Position = vec4(0.0); }
