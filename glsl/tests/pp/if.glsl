#define ONE 1
#define ZERO 0
#define FN(x) (x * 2)
#if ONE
int a;
#elif 1
int not_a;
#else
int not_a2;
#endif
#if ZERO
int not_b;
#elif defined ONE && defined(ZERO) && !defined NOPE
int b;
#else
int not_b2;
#endif
#ifdef ONE
int c;
#endif
#ifndef ONE
int not_c;
#else
int c2;
#endif
#if FN(3) == 6 && (1 << 4) == 16 && (-16 >> 2) == -4 && 7 % 3 == 1 && -7 / 2 == -3
int d;
#endif
#if (1 | 2) == 3 && (6 & 3) == 2 && (5 ^ 1) == 4 && ~0 == -1 && !0 && +1 == 1
int e;
#endif
#if 1 + 2 * 3 == 7 && (1 + 2) * 3 == 9 && 1 < 2 && 2 > 1 && 1 <= 1 && 1 >= 1 && 1 != 2
int f;
#endif
#if 0x10 == 16 && 010 == 8 && 10u == 10 && 0 || 1
int g;
#endif
#if UNDEFINED_NAME == 0 && !UNDEFINED_NAME
int h;
#endif
#if 0
#error not reached
#foo garbage directive
#if 1 / 0
#endif
#elif garbage (
#else
int i;
#endif
#if 9223372036854775807 + 1 < 0 && (1 << 70) == 0
int j;
#endif
#if 1
#elif
#endif
#define DEF defined
#if DEF ONE
int k;
#endif
