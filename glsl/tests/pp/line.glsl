int a = __LINE__;
#line 10
int b = __LINE__ + __FILE__;
#line 20 3
int c = __LINE__ + __FILE__;
#define LINE_NUMBER 100
#define SOURCE 7
#line LINE_NUMBER SOURCE
int d = __LINE__ + __FILE__;
#line 0x20
int e = __LINE__;
#line 4294967295
int f = __LINE__;
