#version 100
#if GL_ES == 1 && __VERSION__ == 100 && GL_FRAGMENT_PRECISION_HIGH == 1 && GL_OES_standard_derivatives == 1
int es100;
#endif
#ifdef GL_ARB_texture_rectangle
int no;
#endif
