@@ string /a.h
int a;
@@ source
#version 330
// Without the #extension directive every #include is an error.
void f();
#include "/a.h"
#include "/missing.h"
#line 20 "/some/path"
int after;
