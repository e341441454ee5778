/* comments and blank lines may come first */

#version 130
#version 130
int a = __VERSION__;
