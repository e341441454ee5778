#version 110
int a;
