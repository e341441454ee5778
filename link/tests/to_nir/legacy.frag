#version 120
uniform sampler2D tex;
uniform sampler2DShadow depth;
varying vec3 normal;
void main() {
    vec4 c = texture2D(tex, gl_TexCoord[0].xy) + texture2DProj(tex, gl_TexCoord[1]) * gl_Color;
    c += shadow2D(depth, gl_TexCoord[0].xyz) + shadow2DProj(depth, gl_TexCoord[1]);
    if (gl_FrontFacing)
        c.rgb += normal * gl_FragCoord.z + vec3(gl_PointCoord, 0.0);
    gl_FragData[0] = c;
    gl_FragData[1] = gl_SecondaryColor;
    gl_FragDepth = gl_FragCoord.z * 0.5;
}
