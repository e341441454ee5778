#
# 
#foo
# 33 "file"
#include "x.h"
#ifdefined X
#endif
int a # b;
int c ## d;
int e;
