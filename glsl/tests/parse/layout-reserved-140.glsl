#version 140
int f() { int layout; return 0; }
