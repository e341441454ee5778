// [config]
// expect_result: fail
// glsl_version: 1.30
// require_extensions: GL_ARB_explicit_attrib_location
// [end config]
//
// ARB_explicit_uniform_location: layout(location) on a uniform needs the
// extension enabled (or GLSL 4.30); explicit_attrib_location alone is not
// enough.
#version 130
#extension GL_ARB_explicit_attrib_location: require
layout(location = 0) uniform vec4 color;
void main() { gl_FragColor = color; }
