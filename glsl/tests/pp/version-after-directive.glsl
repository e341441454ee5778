#define X 1
#version 130
