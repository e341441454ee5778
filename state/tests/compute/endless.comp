#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
// Never ends: the dispatch stops at the driver's instruction budget.
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer Counter { uint count; };
void main() {
    while (count != 0xffffffffu)
        atomicAdd(count, 0u);
}
