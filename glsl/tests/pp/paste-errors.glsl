#define CAT(a, b) a ## b
int a = CAT(1, x);
int b = CAT(+, +);
int c = CAT(x, +);
int d = CAT(-, >);
int e = CAT(/, /);
int f = CAT(x y, z w);
