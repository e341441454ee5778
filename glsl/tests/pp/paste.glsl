#define I i
#define N n
#define T t
#define INT invalid_type
#define CONCAT3(x, y, z) x ## y ## z
#define SPACED i ## n ## t
#define EXPANDS_AFTER I ## N ## T
#define CAT(a, b) a ## b
#define XCAT(a, b) CAT(a, b)
#define A x
#define B y
#define SHIFT(op) 1 op ## op 2
CONCAT3(i, n, t) v1;
SPACED v2;
EXPANDS_AFTER v3;
int v4 = CAT(A, B) + XCAT(A, B);
int v5 = CAT(A, 1) + CAT(1, 2) + CAT(, A) + CAT(A, ) + CAT(,);
bool v6 = 1 CAT(<, =) 2 && SHIFT(<) == 4;
int v7 = CAT(CAT, (x, y));
int v8 = XCAT(XCAT(a, b), c);
