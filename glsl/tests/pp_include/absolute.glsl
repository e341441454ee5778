@@ string /lib/color.glsl
vec4 color() { return vec4(1.0); }
@@ string /lib/./dir/../other.glsl
float other;
@@ source
#version 150
#extension GL_ARB_shading_language_include : enable
#include "/lib/color.glsl"
#include </lib/other.glsl>
#include "/lib/x/../color.glsl"
void main() {}
