void main() {
    float class = 1.0;
}
