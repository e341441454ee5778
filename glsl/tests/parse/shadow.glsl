struct S { float x; };
void main() {
    S s = S(1.0);
    {
        float S = 1.0;
        S = 2.0;
        s.x = S;
    }
    S t = s;
}
