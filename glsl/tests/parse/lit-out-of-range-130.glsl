#version 130
void main() {
    int a = 4294967296;
}
