#version 450
// GLSL 4.50 has the ARB_derivative_control functions and integer mix in
// core, but derivatives exist only in fragment shaders (§8.14.1).
uniform ivec2 i;
uniform bvec2 s;
void main()
{
    ivec2 m = mix(i, i.yx, s);
    gl_Position = vec4(dFdxCoarse(float(m.x)));
}
