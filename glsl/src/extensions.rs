//! The one table of GLSL extensions rgl supports, with the versions in which each
//! is advertised; the preprocessor defines a macro for each and `#extension`
//! checks names against it.
