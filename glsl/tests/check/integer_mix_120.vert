#version 120
#extension GL_EXT_shader_integer_mix : enable
// GL_EXT_shader_integer_mix requires GLSL 1.30: in 1.20 the extension is not
// supported (a warning for `enable`) and there is no integer mix.
uniform ivec2 i;
uniform bvec2 s;
void main()
{
    ivec2 m = mix(i, i.yx, s);
    gl_Position = vec4(float(m.x));
}
