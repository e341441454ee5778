#version 120
// `#pragma STDGL invariant(all)` makes every output of the stage invariant,
// the built-in ones included; inputs and uniforms are untouched.
#pragma STDGL invariant(all)
attribute vec4 pos;
uniform float scale;
varying vec2 uv;
void main()
{
    uv = pos.xy * scale;
    gl_Position = pos;
}
