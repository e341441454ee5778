void main() {
    int a = 0xg;
}
