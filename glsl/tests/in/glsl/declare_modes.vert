#version 130
uniform mat4 mvp;
uniform float scale = 2.0;
in vec4 position;
in vec3 normal;
out vec3 v_normal;
centroid out vec2 v_centroid;
flat out int v_id;
smooth out float v_smooth;
noperspective out float v_noperspective;
invariant gl_Position;
const float half_value = 0.5;

void main()
{
    float local_scale = scale * half_value;
    v_normal = normal * local_scale;
    v_centroid = position.xy;
    v_id = gl_VertexID;
    v_smooth = position.z;
    v_noperspective = position.w;
    gl_Position = mvp * position;
}
