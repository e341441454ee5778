#define F(x) x
int a = F(1
#define G 2
);
int b = G;
