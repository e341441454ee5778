//! `rgl-nir`: the SSA IR modelled on Mesa NIR.
//!
//! * [`ir`]: shader, variables, functions, instructions and SSA defs in arenas with
//!   typed handles ([`arena`]); the control-flow tree and instruction order live in the
//!   layout ([`ir::layout`]), from which the CFG is derived.
//! * [`opcodes`] / [`intrinsics`]: the one ALU opcode table and the one intrinsic table;
//!   enums, info, parsing/printing names, builder methods, constant folding
//!   ([`constant_fold`]) and validator type rules all derive from them.
//! * [`builder`]: cursor-based instruction builder.
//! * [`print`] / [`reader`]: Mesa's modern `nir_print` text format and its parser;
//!   `print(parse(text)) == text` for every printed shader. Extensions over Mesa's
//!   output, needed to read it back: `decl_struct` lines, array indices always printed
//!   as SSA values (`[%3]`, the constant shows in the `// &a[1]` comment), `// exact`
//!   on exact ALU ops, `parallel_copy 32 %5 = %3, ...`, `call f %1, %2`.
//! * [`stats`]: shader-db style instruction counts (`rglc --stats`).
//! * [`validate`]: staged validator (handles → structure/SSA/CFG/derefs → types).
//! * [`passes`]: the `Pass` trait, the `declare_passes!` registry, the runner
//!   (`RGL_NIR_DEBUG=print,validate`) and the first optimisation passes.
//! * [`finalize`]: draw-time variant lowering (`finalize_variant`), the state-tracker
//!   passes a variant key asks for.
//! * [`options`]: what a driver asks of the compiler per stage (`CompilerOptions`),
//!   read by the link pipeline and by `finalize`.
//!
//! Tests (all text in, text out): `tests/ir/*.nir` round-trip corpus,
//! `tests/errors/*.nir` reader errors, `tests/invalid/*.nir` validator errors,
//! `tests/filetests/<pass>/*.nir` pass file tests, `tests/builder/` builder output, and
//! a mutation test that feeds every corpus shader, damaged line by line, through the
//! reader, the validator and every pass. `BLESS=1` rewrites expectations.
#![deny(missing_docs)]

pub mod arena;
pub mod builder;
pub mod constant_fold;
pub mod eval;
pub mod finalize;
pub mod intrinsics;
pub mod ir;
pub mod link;
pub mod opcodes;
pub mod options;
pub mod passes;
pub mod print;
pub mod reader;
pub mod stats;
pub mod validate;
