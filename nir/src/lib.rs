//! `rgl-nir`: the SSA IR modelled on Mesa NIR — data structures ([`ir`]), the opcode and
//! intrinsic tables ([`opcodes`], [`intrinsics`]), the builder, the text printer and
//! reader (round-tripping Mesa's modern print format), the validator, the pass
//! infrastructure and the first optimisation passes.
#![deny(missing_docs)]

pub mod arena;
pub mod builder;
pub mod constant_fold;
pub mod intrinsics;
pub mod ir;
pub mod opcodes;
pub mod passes;
pub mod print;
pub mod reader;
pub mod validate;
