//! `rgl-backend`: the driver interface ([`Driver`]) and the software driver
//! ([`SoftDriver`]), a threaded CPU rasterizer working in 64-row bands.
//!
//! * [`driver`]: the gallium-like trait, handles and state descriptions.
//! * [`exec`]: the lane interface shaders run behind ([`ShaderExec`], [`exec::ShaderCompiler`])
//!   and Rust-closure shaders for tests and benchmarks.
//! * [`format`](mod@format): surface/texture/vertex formats and their conversions.
//! * [`jit`]: the Cranelift JIT compiling NIR to native SIMD code (the default
//!   shader compiler where the host supports it; `RGL_DRIVER=interp` selects the
//!   interpreter).
//! * [`lanes`]: the NIR → lane-program interpreter (the JIT's fallback and reference).
//! * [`texture`]: sampling over lanes (pure functions the compiled shaders call).
//! * [`soft`]: the software driver's pipeline: vertex fetch and shading, geometry
//!   shaders, primitive assembly, clipping (frustum, guard band, user distances),
//!   fixed-point top-left rasterization in 16×16 / 4×4 blocks, 2×2-quad fragment
//!   shading, polygon modes (line/point with quad and polygon edge flags),
//!   depth/stencil, blending, clears.
//!
//! Not supported (each returns [`Error::Unsupported`] or is documented where it
//! applies): multisampling, integer render targets,
//! sRGB, seamless cube filtering, anisotropic filtering. `create_shader` compiles
//! NIR with [`lanes::LaneCompiler`] (replaceable with [`SoftDriver::set_compiler`]).
#![deny(missing_docs)]

pub mod driver;
pub mod error;
pub mod exec;
pub mod format;
pub mod jit;
pub mod lanes;
pub mod soft;
pub mod texture;

pub use driver::Driver;
pub use error::{Error, Result};
pub use exec::{ShaderExec, ShaderInfo};
pub use soft::SoftDriver;
