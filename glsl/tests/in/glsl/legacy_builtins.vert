#version 110
varying vec4 lit;

void main()
{
    gl_Position = ftransform();
    gl_TexCoord[0] = gl_TextureMatrix[0] * gl_MultiTexCoord0;
    vec3 n = normalize(gl_NormalMatrix * gl_Normal);
    float diffuse = max(dot(n, gl_LightSource[0].position.xyz), 0.0);
    gl_FrontColor = gl_Color * diffuse + gl_LightSource[0].ambient;
    lit = gl_ModelViewProjectionMatrix * gl_Vertex;
    gl_PointSize = 1.0;
}
