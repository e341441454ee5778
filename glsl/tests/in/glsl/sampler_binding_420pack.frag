#version 130
#extension GL_ARB_shading_language_420pack : require
// GLSL 4.20 §4.4.5: `binding` gives a sampler its initial texture unit; the
// elements of an array take consecutive units, so `arr` starts on unit 4,
// 5 and 6. The units are the uniforms' initial values.
layout(binding = 3) uniform sampler2D single;
layout(binding = 4) uniform sampler2D arr[3];
uniform sampler2D unbound;
out vec4 color;
void main()
{
    color = texture(single, vec2(0.0)) + texture(arr[2], vec2(0.0)) + texture(unbound, vec2(0.0));
}
