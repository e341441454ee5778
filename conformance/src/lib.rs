//! `rgl-conformance`: runs piglit glslparsertest and `.shader_test` files
//! against rgl. The `rgl-conformance` binary is the command-line front; this
//! library holds the pieces: discovery ([`walk`]), the glslparser runner
//! ([`glslparser`]), the `.shader_test` parser and runners ([`shader_test`]),
//! threading and isolation ([`parallel`], [`panic_capture`]), results and their
//! JSON form ([`result`]), per-folder summaries ([`summary`]), the most common
//! failure causes ([`causes`]), the fill-rate benchmark ([`fill`]) and its
//! workloads made from shader-db's game shaders ([`fill_db`]), the ratchet
//! against a committed list of passing tests ([`baseline`]) and the common end
//! of a run ([`report`]).

pub mod baseline;
pub mod causes;
pub mod fill;
pub mod fill_db;
pub mod glslparser;
pub mod panic_capture;
pub mod parallel;
pub mod report;
pub mod result;
pub mod shader_test;
pub mod summary;
pub mod walk;
