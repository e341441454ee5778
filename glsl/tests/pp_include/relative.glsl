@@ search /first
@@ search /second/
@@ string /second/a.h
// Quoted, inside an included string: the including string's directory first.
#include "b.h"
@@ string /second/b.h
int b_from_second;
@@ string /first/b.h
int b_from_first;
@@ string /first/c.h
// Angle brackets: the search paths only.
#include <b.h>
@@ source
#extension GL_ARB_shading_language_include : enable
#include <a.h>
#include "c.h"
#include <../second/b.h>
