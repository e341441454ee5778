//! `rgl-glsl`: the GLSL front end of rgl.
//!
//! GLSL source goes through [`pp`] (a glcpp-faithful preprocessor), [`parse`]
//! (glsl-lang's parser, converted at once into our [`ast`]), [`check`] (semantic
//! analysis producing typed GLSL IR, [`hir`]) and [`lower`] (compile-time
//! lowering, HIR → LIR). [`compile()`] runs the whole sequence and returns the IR
//! plus a Mesa-style [`diag::InfoLog`].
//!
//! ```
//! use rgl_glsl::{compile, CompileOptions, Stage};
//! let shader = compile("void main() { gl_FragColor = vec4(1.0); }", &CompileOptions::new(Stage::Fragment));
//! println!("{}", shader.info_log);
//! ```

#![deny(missing_docs)]

pub mod arena;
pub mod ast;
pub mod builtins;
pub mod check;
pub mod compile;
pub mod debug;
pub mod diag;
pub mod extensions;
pub mod hash;
pub mod hir;
pub mod limits;
pub mod lower;
pub mod parse;
pub mod pp;
pub mod span;
pub mod types;
pub mod version;

pub use compile::{compile, compile_bytes, CompileOptions, CompiledShader};
pub use diag::{Diagnostic, InfoLog};
pub use version::{Profile, Stage, Version};
