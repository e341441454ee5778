#version 120
void main() {
    float a[2];
    int n = a.size();
}
