#version 120
uniform gl_LightSourceParameters light;
void main() {
    gl_MaterialParameters m = gl_FrontMaterial;
    gl_DepthRangeParameters d = gl_DepthRange;
    gl_FogParameters f = gl_Fog;
}
