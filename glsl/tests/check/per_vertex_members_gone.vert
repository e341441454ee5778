#version 150
// Members left out of the redeclaration are gone; listed ones cannot be
// redeclared on their own afterwards.
out gl_PerVertex { vec4 gl_Position; float gl_ClipDistance[]; };
out float gl_ClipDistance[4];
void main()
{
    gl_Position = vec4(0.0);
    gl_PointSize = 1.0;
}
