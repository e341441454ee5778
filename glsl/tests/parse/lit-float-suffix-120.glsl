#version 120
void main() {
    float a = 1.0f;
}
