#define F(x) x
int a = F(1,
  2
