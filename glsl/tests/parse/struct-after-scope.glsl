void g() {
    struct T { int i; };
    T t = T(1);
}
T u;
