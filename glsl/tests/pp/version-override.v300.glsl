#version 110
int v = __VERSION__;
#ifdef GL_ES
int es;
#endif
