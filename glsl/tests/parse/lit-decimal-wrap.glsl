void main() {
    int a = 2147483648;
    int b = 3000000000;
}
