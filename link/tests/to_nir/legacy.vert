#version 120
uniform vec4 lightpos;
invariant varying vec3 normal;
void main() {
    gl_Position = ftransform();
    gl_FrontColor = gl_Color * gl_LightSource[0].diffuse;
    gl_BackColor = gl_SecondaryColor;
    gl_TexCoord[0] = gl_MultiTexCoord0;
    gl_TexCoord[1] = gl_TextureMatrix[1] * gl_MultiTexCoord1;
    gl_PointSize = 2.0;
    gl_ClipVertex = gl_ModelViewMatrix * gl_Vertex;
    normal = normalize(gl_NormalMatrix * gl_Normal) + lightpos.xyz;
}
