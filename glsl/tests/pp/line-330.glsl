#version 330
int a = __LINE__;
#line 10
int b = __LINE__;
#line 20 3
int c = __LINE__ + __FILE__ + @;
