#version 110
uniform sampler2D tex;
uniform sampler2DShadow shadow_map;
uniform samplerCube env;
uniform sampler1D ramp;
uniform sampler3D volume;
varying vec4 coord;

void main()
{
    vec4 c = texture2D(tex, coord.xy);
    c += texture2D(tex, coord.xy, 0.5);
    c += texture2DProj(tex, coord);
    c += texture2DProj(tex, coord.xyz);
    c += shadow2D(shadow_map, coord.xyz);
    c += shadow2DProj(shadow_map, coord);
    c += textureCube(env, coord.xyz);
    c += texture1D(ramp, coord.x);
    c += texture3D(volume, coord.xyz);
    gl_FragColor = c;
}
