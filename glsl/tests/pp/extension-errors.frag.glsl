#extension foo : require
#extension all : require
#extension all : enable
#extension
#extension foo :
#extension foo bar
#extension foo : enable junk
#define FOO disable
#extension all : FOO
#extension GL_AMD_shader_stencil_export : require
int a;
#extension GL_ARB_texture_rectangle : enable
