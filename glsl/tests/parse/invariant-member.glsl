#version 150
out block {
    invariant vec4 x;
    invariant centroid vec2 y;
};
struct S { float f; };
invariant out S s;
void main() {}
