#version 130
#if GL_FRAGMENT_PRECISION_HIGH != 1
#error GL_FRAGMENT_PRECISION_HIGH != 1
#endif
int v = __VERSION__;
