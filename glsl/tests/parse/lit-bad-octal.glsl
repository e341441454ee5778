void main() {
    int a = 08;
}
