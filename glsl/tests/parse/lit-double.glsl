#version 330
void main() {
    float a = float(1.0lf);
}
