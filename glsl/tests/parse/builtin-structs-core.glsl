#version 150
void main() {
    gl_DepthRangeParameters d = gl_DepthRange;
    float gl_FogParameters = 1.0;
}
