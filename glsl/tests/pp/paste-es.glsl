#version 300 es
#define CAT(a, b) a ## b
int CAT(x, y);
#if 0
#define SKIPPED(a, b) a ## b
#endif
