int a = 1;
int b = __LINE__;int c = __LINE__;
#define X \
  3
int d = X + __LINE__;
