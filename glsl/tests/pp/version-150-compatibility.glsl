#version 150 compatibility
#if !defined GL_core_profile && GL_compatibility_profile == 1
int compat;
#endif
