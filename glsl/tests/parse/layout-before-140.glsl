#version 130
layout(location = 0) out vec4 c;
