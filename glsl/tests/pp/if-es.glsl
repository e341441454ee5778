#version 300 es
#if UNDEFINED
#endif
#if 1 || UNDEFINED_SHORT_CIRCUITED
#endif
#if 0 && UNDEFINED_SHORT_CIRCUITED
#endif
#if defined UNDEFINED
#endif
#if GL_ES == 1 && __VERSION__ == 300 && GL_FRAGMENT_PRECISION_HIGH == 1
int es;
#endif
#ifdef GL_core_profile
int not_core;
#endif
