#version 120
// Prototypes, definitions and calls.
float f(float x);
int f(float x);
void g(in float x);
void g(out float x) { x = 1.0; }
float h(float x) { return x; }
float h(float x) { return x * 2.0; }
float k(float a, float a) { return a; }
float noreturn() { }
float wrongtype() { return 1; }
void novalue() { return 1.0; }
float missing() { return; }
float overload(float a, int b) { return a; }
float overload(int a, float b) { return b; }
float p(sampler2D s);
void q(out sampler2D s);
void main()
{
    float y = dot(vec3(1.0), 1);
    float z = nothere(1.0);
    float w = overload(1, 1);
    float v = h(1.0, 2.0);
    void localproto();
    gl_Position = vec4(y, z, w, v);
}
