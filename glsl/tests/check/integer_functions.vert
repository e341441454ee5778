#version 130
// Without GLSL 4.00, ARB_gpu_shader5 or MESA_shader_integer_functions the
// integer functions do not exist and int does not convert to uint.
uniform int i;
void main()
{
    uint u = i;
    gl_Position = vec4(float(bitCount(i)));
}
