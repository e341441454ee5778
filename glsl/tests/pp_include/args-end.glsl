@@ string /call.h
#define F(a, b) a + b
int x = F(1,
@@ source
#extension GL_ARB_shading_language_include : enable
#include "/call.h"
2);
