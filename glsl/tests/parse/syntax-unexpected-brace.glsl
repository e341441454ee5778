void main() {
    float x = 1.0 + ;
}
