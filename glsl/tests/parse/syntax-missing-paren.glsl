void main() {
    float x = (1.0 + 2.0;
}
