#line
#line ""
#line c c
#line 65.4
#line 1 2 3
#line 0 "/shader/path"
#line345
#linekfj
int a = __LINE__;
