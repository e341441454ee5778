int a = __LINE__;
int b = __FILE__;
int c = __VERSION__;
#define L __LINE__
int d = L;
#define F(x) x + __LINE__
int e = F(
  __LINE__
  );
#ifdef __LINE__
int line_defined;
#endif
#if defined(__VERSION__)
int version_defined;
#endif
