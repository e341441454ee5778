#version 430
// An endless loop behind a barrier in a 48-invocation workgroup: the
// dispatch stops at the driver's instruction budget (GL_INVALID_OPERATION
// with a reason), whatever the batch that runs out.
layout(local_size_x = 48) in;
layout(std430, binding = 0) buffer Counter { uint count; };
shared uint s;
void main() {
    if (gl_LocalInvocationIndex == 0u)
        s = count;
    barrier();
    uint x = s;
    while (x != 0xffffffffu) {
        x = x * 3u + s;
        barrier();
    }
    count = x;
}
