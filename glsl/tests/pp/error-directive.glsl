#error
#error message to the user
#error "quoted" ; 78 c
#if 0
#error skipped
#endif
int after;
