@@ string /inc.h
int inc1;
int inc2 = __LINE__;
#line 40
int inc40 = __FILE__;
#if 1
int unterminated;
@@ string /endif.h
#endif
@@ source
#version 120
#extension GL_ARB_shading_language_include : enable
#line 10 3
#include "/inc.h"
int after = __LINE__ + __FILE__;
#if 1
#include "/endif.h"
#endif
#line 100 "/path/for/messages"
int at100 = __LINE__;
