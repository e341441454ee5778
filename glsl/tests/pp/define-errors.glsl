#define PLUS(a, b) a + b
#define ONE(x) x
int a = PLUS(1);
int b = PLUS(1, 2, 3);
int c = ONE(1, 2);
int d = NOT_A_MACRO(1, 2);
int e = PLUS(1, (2, 3);
int f = 5;
#define
#define 123 x
#define "str" x
#define BAD_PARAMS(a b) a
#define BAD_PARAMS2(a,) a
#define VARIADIC(a, ...) a
#define DUP(a, a) a
#define STR(a) #a
#define PASTE_START ## a
#define PASTE_END(a) a ##
int g = PLUS(4,
