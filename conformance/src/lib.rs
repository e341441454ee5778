//! `rgl-conformance`: runs piglit glslparsertest (and later shader_test) files
//! against rgl. The `rgl-conformance` binary is the command-line front; this
//! library holds the pieces: discovery ([`walk`]), the glslparser runner
//! ([`glslparser`]), threading and isolation ([`parallel`], [`panic_capture`]), results and their
//! JSON form ([`result`]), per-folder summaries ([`summary`]) and the ratchet
//! against a committed list of passing tests ([`baseline`]).

pub mod baseline;
pub mod glslparser;
pub mod panic_capture;
pub mod parallel;
pub mod result;
pub mod summary;
pub mod walk;
