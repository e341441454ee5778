#version 100
#undef __FILE__
#undef MY__NAME
#undef GL_ES
int a = GL_ES;
