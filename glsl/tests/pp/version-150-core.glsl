#version 150 core
#if defined GL_core_profile && !defined GL_compatibility_profile && GL_FRAGMENT_PRECISION_HIGH == 1
int core;
#endif
