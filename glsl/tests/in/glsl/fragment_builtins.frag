#version 110
uniform float depth_bias;

void main()
{
    vec2 grad = vec2(dFdx(gl_FragCoord.x), dFdy(gl_FragCoord.y)) + fwidth(gl_FragCoord.xy);
    gl_FragData[0] = vec4(gl_FrontFacing ? 1.0 : 0.0, grad, gl_Color.a);
    gl_FragDepth = gl_FragCoord.z + depth_bias;
}
