#version 130
void main() {
    int a = 0xFFFFFFFF + 037777777777 + 0X7fffffff + 2147483647 + 0;
    uint b = 4294967295u + 0xFFFFFFFFU + 0u;
    float c = 1. + .5 + 1e5 + 1.5E-3 + 2e+2 + 1.0f + 3e0F + 0.0;
    bool d = true || false;
}
