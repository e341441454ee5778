#extension GL_ARB_texture_rectangle : require
#extension GL_ARB_explicit_attrib_location: enable
#extension GL_ARB_draw_instanced : warn
#extension GL_ARB_uniform_buffer_object : disable
#extension all : warn
#extension all : disable
#extension extensionfoo : enable
#extension extensionfoo : warn
#extension extensionfoo : disable
#extension GL_OES_standard_derivatives : enable
int a;
