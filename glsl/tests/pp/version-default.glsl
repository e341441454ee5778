#if __VERSION__ == 110 && !defined GL_ES && !defined GL_FRAGMENT_PRECISION_HIGH && !defined GL_core_profile
int v110;
#endif
#if GL_ARB_texture_rectangle && GL_ARB_draw_instanced && GL_ARB_compatibility && GL_EXT_texture_array
int exts;
#endif
#ifdef GL_OES_standard_derivatives
int no;
#endif
