@@ source
#extension GL_ARB_shading_language_include : enable
#if 0
#include "/not/looked/up"
#include garbage
#endif
#ifdef GL_ARB_shading_language_include
int macro_defined = GL_ARB_shading_language_include;
#endif
