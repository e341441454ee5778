#line 10
int b = __LINE__ + @;
#extension foo : require
#if 1/0
#endif
