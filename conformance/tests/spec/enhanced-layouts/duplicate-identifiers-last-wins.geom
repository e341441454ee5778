// [config]
// expect_result: pass
// glsl_version: 1.50
// require_extensions: GL_ARB_enhanced_layouts
// check_link: true
// [end config]
//
// GLSL 4.40 §4.4: "the same layout-qualifier-name can occur multiple times
// within a layout qualifier or across multiple layout qualifiers in the same
// declaration ... the last occurrence overrides the former occurrence(s)".
#version 150
#extension GL_ARB_enhanced_layouts: require
layout(points) in;
layout(points, max_vertices = 8, max_vertices = 1) out;
layout(max_vertices = 1) out;
void main()
{
    gl_Position = gl_in[0].gl_Position;
    EmitVertex();
}
