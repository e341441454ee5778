#version 130
void main() {
    int x = 1;
    switch (x) { case 0: case 1: x = 2; default: break; }
}
