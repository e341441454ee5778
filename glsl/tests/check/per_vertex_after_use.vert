#version 150
// Using a member, or redeclaring it on its own, before the block: errors.
void foo() { gl_PointSize = 1.0; }
out gl_PerVertex { vec4 gl_Position; float gl_PointSize; };
void main() { }
