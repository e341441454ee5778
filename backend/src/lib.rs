//! `rgl-backend`: the driver interface ([`Driver`]), the table of drivers rgl can
//! create by name ([`registry`], `RGL_DRIVER`), and the software driver
//! ([`SoftDriver`]), a threaded CPU rasterizer working in 64-row bands.
//!
//! * [`driver`]: the gallium-like trait and every type it speaks (handles, resource
//!   and state descriptions, [`driver::ShaderStage`], [`driver::SamplerState`]). A
//!   driver needs nothing from the software driver's modules.
//! * [`registry`]: drivers by name, the default, `RGL_DRIVER`.
//! * [`format`](mod@format): surface/texture/vertex formats and their conversions.
//! * [`fastmath`]: the inline f32 approximations of `exp2`, `log2`, `pow`, `sin` and
//!   `cos` within GLSL's precision rules, shared by the interpreter and the JIT.
//! * The software driver:
//!   * [`exec`]: the lane interface its shaders run behind ([`ShaderExec`],
//!     [`exec::ShaderCompiler`]) and Rust-closure shaders for tests and benchmarks;
//!   * [`jit`]: the Cranelift JIT compiling NIR to native SIMD code (driver
//!     `jit`, the default where the host supports it);
//!   * [`lanes`]: the NIR → lane-program shader compiler (an interpreter; driver
//!     `interp`, and the JIT's fallback and reference);
//!   * [`texture`]: sampling over lanes (pure functions the compiled shaders call);
//!   * [`compute`]: compute dispatch (workgroups through the NIR reference
//!     interpreter, barriers, shared memory, bounds-checked storage buffers);
//!   * [`soft`]: its pipeline: vertex fetch and shading, geometry shaders,
//!     primitive assembly, clipping (frustum, guard band, user distances),
//!     fixed-point top-left rasterization in 16×16 / 4×4 blocks, 2×2-quad fragment
//!     shading, polygon modes (line/point with quad and polygon edge flags),
//!     depth/stencil, blending, clears.
//!
//! Not supported by the software driver (each returns [`Error::Unsupported`] or is
//! documented where it applies): multisampling, integer render targets, sRGB,
//! seamless cube filtering, anisotropic filtering.
//!
//! # Adding a driver
//!
//! 1. Implement [`Driver`] for your type, in its own module (or crate). It receives
//!    finalized NIR in `create_shader` (IO lowered to `load_input`/`store_output`
//!    with driver locations, uniforms to `load_uniform`/`load_ubo`, samplers to
//!    texture indices: see the conventions in [`driver`]) and plain state
//!    descriptions everywhere else; report what you cannot do as
//!    [`Error::Unsupported`], never panic.
//! 2. Add a row to the table in [`registry`] (name, description, an availability
//!    check for the host, a constructor). `RGL_DRIVER=<name>` then selects it for
//!    every context, test and tool; `rgl_state::Context::with_driver` takes a
//!    driver object directly.
//! 3. Run the conformance ratchets with `RGL_DRIVER=<name>` (see README).
#![deny(missing_docs)]

pub mod compute;
pub mod driver;
pub mod error;
pub mod exec;
pub mod fastmath;
pub mod format;
pub mod image;
pub mod jit;
pub mod lanes;
pub mod registry;
pub mod soft;
pub mod storage;
pub mod texture;

pub use driver::Driver;
pub use error::{Error, Result};
pub use exec::{ShaderExec, ShaderInfo};
pub use soft::SoftDriver;
