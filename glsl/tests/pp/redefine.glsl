#define A 1
#define A 1
#define A  1
#define B(x) x + 1
#define B(x) x   +   1
#define B(y) y + 1
#define C 1+2
#define C 1 + 2
#define D
#define D 1
#define E 1
#define E
#define F(x) x
#define F x
#define GL_MINE 1
#define MY__NAME 1
#define __LEADING 1
#define defined 1
#define GL_ES 2
#define __VERSION__ 120
#define __VERSION__ 110
#define __LINE__ 7
int x = A + B(1) + C + __LINE__ + __VERSION__;
