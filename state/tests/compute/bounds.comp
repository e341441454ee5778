#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
// One invocation: a write and a read far past the bound range (dropped / 0),
// an atomic past it (not performed, 0) and a write just past its end
// (dropped). The front end has no runtime `length()` yet; the driver's
// `get_ssbo_size` is covered by the backend's compute tests.
layout(local_size_x = 1) in;
layout(std430, binding = 2) buffer Data { uint data[]; };
uniform uint far;
void main() {
    data[far] = 7u;
    uint past = data[far];
    uint old = atomicAdd(data[far + 1u], 5u);
    data[0] = past + 1u;
    data[1] = old;
    data[4] = 9u;
}
