// [config]
// expect_result: pass
// glsl_version: 1.50
// require_extensions: GL_ARB_gpu_shader5
// check_link: true
// [end config]
//
// GLSL 4.00 §4.7: `precise` on outputs, locals and parameters, before the
// storage qualifier.
#version 150
#extension GL_ARB_gpu_shader5 : require
precise out vec4 color;
in vec4 v;
float f(precise in float x) { return x * 2.0; }
void main()
{
    precise float p = fma(v.x, v.y, v.z);
    color = vec4(p, f(v.w), 0.0, 1.0);
}
