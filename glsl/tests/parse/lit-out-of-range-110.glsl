void main() {
    int a = 4294967296;
}
