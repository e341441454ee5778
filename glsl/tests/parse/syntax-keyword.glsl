void main() {
    float if = 1.0;
}
