int a;
#version 130
int b = __VERSION__;
