#version abc
int a = __VERSION__;
