#version 120
struct S { float x; };
float f(float S) { return S; }
void main() {
    S a = S(1.0);
    if (true) {
        S S = S(2.0);
        a = S;
    }
    S b = a;
    vec4 v = vec4(1.0);
    float w = v.x;
}
void g() {
    struct T { int i; };
    T t = T(1);
}
float h(float S);
void k() {
    for (float S = 0.0; S < 1.0; S += 0.5) h(S);
    S s = S(1.0);
    while (bool S = true) { S = false; }
    S t = S(2.0);
}
