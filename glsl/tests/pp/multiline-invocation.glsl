#define F(a, b) a + b + __LINE__
#define G F
int x = F
(
  1,
  2
);
int y = G
  (3, 4);
int z = F /* comment */ (5,
6) + F;
int w = 1;
