#version 100
void main() {
    mediump float a = 1.0F;
}
