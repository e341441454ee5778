void main() {
    int a = int(1u);
}
