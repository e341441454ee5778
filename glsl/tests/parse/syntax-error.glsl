void main() {
    float x = 1.0
    x = 2.0;
}
