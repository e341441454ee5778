// [config]
// expect_result: pass
// glsl_version: 1.40
// require_extensions: GL_ARB_shader_image_load_store
// [end config]
//
// GL_ARB_shader_image_load_store: every image type, with binding and the
// memory qualifiers, in GLSL 1.40; arrays of images are uniforms too.
#version 140
#extension GL_ARB_shader_image_load_store : require
layout(rgba32f) uniform image1D a;
layout(rgba16f) uniform image2D b[3];
layout(r32f) coherent volatile uniform image3D c;
layout(rgba8) readonly uniform image2DRect d;
layout(rg16) restrict uniform imageCube e;
writeonly uniform imageBuffer f;
layout(r32i) uniform iimage1DArray g;
layout(r32ui) uniform uimage2DArray h;
layout(rgba16i) uniform iimageCubeArray i;
layout(rgba8ui) uniform uimage2DMS j;
layout(r8_snorm) uniform image2DMSArray k;
void main()
{
    imageStore(f, 0, imageLoad(b[1], ivec2(0)) + imageLoad(j, ivec2(0), 1));
}
