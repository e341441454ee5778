#version 130
// Statements before the first label, a label at the end.
uniform int x;
void main()
{
    switch (x) {
        gl_Position = vec4(0.0);
    case 0:
        break;
    case 1:
    }
    gl_Position = vec4(1.0);
}
