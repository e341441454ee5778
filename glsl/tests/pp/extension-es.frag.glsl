#version 100
#extension GL_OES_standard_derivatives : require
#extension GL_ARB_texture_rectangle : require
