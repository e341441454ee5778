#version 150
// Redeclaring gl_PerVertex with an explicitly sized gl_ClipDistance sizes the
// built-in: dynamic indexing and .length() are then allowed, on the input
// block (gl_in[]) and on the output.
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in gl_PerVertex {
    vec4 gl_Position;
    float gl_ClipDistance[4];
} gl_in[];
out gl_PerVertex {
    vec4 gl_Position;
    float gl_ClipDistance[4];
};
uniform int which;
void main()
{
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position;
        for (int j = 0; j < gl_in[i].gl_ClipDistance.length(); j++)
            gl_ClipDistance[j] = gl_in[i].gl_ClipDistance[which] + float(j);
        EmitVertex();
    }
}
