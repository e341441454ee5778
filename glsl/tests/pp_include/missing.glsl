@@ search /dir
@@ string /dir/sub/file
int present;
@@ source
#extension GL_ARB_shading_language_include : enable
#include "/nowhere"
#include </dir/sub>
#include <sub>
#include "missing"
#include "/dir//sub/file"
#include "/dir/sub/file/"
#include /dir/sub/file
#include "/dir/sub/file" extra
#include <sub/file>
