#version 140
in vec4 pos;
flat out int id;
invariant gl_Position;
out float gl_ClipDistance[2];
void main() {
    id = gl_VertexID + gl_InstanceID;
    gl_Position = pos * float(gl_VertexID);
    gl_ClipDistance[0] = pos.x;
    gl_ClipDistance[1] = pos.y;
}
