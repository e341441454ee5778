#if 1
int a;
#ifdef X
int b;
