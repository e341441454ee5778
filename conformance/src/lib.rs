//! `rgl-conformance`: runs piglit glslparsertest and shader_test files against rgl.
