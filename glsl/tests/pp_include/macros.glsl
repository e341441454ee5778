@@ string /defs.h
#define SCALE(x) ((x) * FACTOR)
#ifndef FACTOR
#error FACTOR must be defined before including
#endif
#define FROM_INCLUDE 7
@@ source
#extension GL_ARB_shading_language_include : require
#define FACTOR 2.0
#include "/defs.h"
float f = SCALE(FROM_INCLUDE);
#ifdef FROM_INCLUDE
int seen;
#endif
