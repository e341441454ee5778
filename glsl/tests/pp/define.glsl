#define EMPTY
#define ONE 1
#define PLUS(a, b) a + b
#define NOARGS() noargs
#define ID(x) x
#define SELF SELF + 1
#define MUTUAL_A MUTUAL_B
#define MUTUAL_B MUTUAL_A
#define F(x) F(x) + x
EMPTY int a = ONE;
int b = PLUS(1, 2) * PLUS((3, 4), 5);
int c = NOARGS() + NOARGS( );
int d = ID(ID(ID(7)));
int e = SELF;
int f = MUTUAL_A;
int g = F(F(2));
int h = PLUS;
int i = ID
  (8);
int j = PLUS(
  9,
  10);
int k = ID(());
int l = ID();
int m = PLUS(,);
