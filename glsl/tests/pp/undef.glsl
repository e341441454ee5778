#define A 1
int a = A;
#undef A
int b = A;
#define A 2
int c = A;
#undef NEVER_DEFINED
#undef GL_ARB_texture_rectangle
#undef GL_NOT_DEFINED
#undef __LINE__
#undef __VERSION__
#undef MY__NAME
#undef
#undef 12
#undef A junk
int d = __VERSION__ + __LINE__;
