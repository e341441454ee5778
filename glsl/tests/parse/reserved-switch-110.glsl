void main() {
    int switch = 1;
}
