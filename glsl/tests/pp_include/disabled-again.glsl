@@ string /a.h
int a;
@@ source
#extension GL_ARB_shading_language_include : enable
#include "/a.h"
#extension GL_ARB_shading_language_include : disable
#include "/a.h"
