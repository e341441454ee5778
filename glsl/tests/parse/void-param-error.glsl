void f(void x);
void g(float, void);
