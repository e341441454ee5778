#version 120
varying vec4 a;
varying vec4 b;
invariant a, b;
invariant gl_Position;
invariant varying vec4 c, d;
