//! `rgl-state`: the GL state tracker. A [`Context`] exposes a Rust-native GL API
//! whose names and shapes follow the `glow` crate (`create_shader`,
//! `uniform_4_f32`, ...), records GL errors with the spec's semantics, compiles and
//! links through rgl's pipeline, and at draw time builds shader variants for the
//! driver.
//!
//! * [`context`]: the context, the error flag, string and limit queries.
//! * [`shader`]: shader and program objects, compile and link; `background`:
//!   the compiler threads of `GL_KHR_parallel_shader_compile`; [`disk_cache`]:
//!   the on-disk shader cache of linked programs.
//! * [`uniforms`]: uniform locations, setters, queries, block bindings.
//! * [`buffer`]: buffer objects; [`vertex_array`]: VAOs and attribute arrays.
//! * [`fixed_state`]: rasterizer and per-fragment state; [`matrices`]: the
//!   compatibility matrix stacks and current color / texture coordinates.
//! * [`texture`]: textures, samplers, units; [`framebuffer`]: FBOs, renderbuffers,
//!   the default framebuffer, clears and read-back.
//! * [`draw`]: the draw calls; [`compute`]: compute dispatch and memory barriers; [`variants`]: draw-time variant keys, the LRU
//!   variant cache and its counters.
//! * [`sampler`]: texture parameters and sampler objects; [`pixels`]: pixel
//!   transfer formats; [`renderbuffer`]: renderbuffers; [`transfer`]: clears,
//!   read-back, blits, copies and mipmap generation.
//! * [`state_queries`]: `glGetIntegerv`/`glGetFloatv` of the rasterizer,
//!   fragment, matrix and binding state, `glGetVertexAttrib`, `glGetClipPlane`.
//! * [`gl`]: GL enum values; [`limits`]: advertised limits; [`names`]: handles.
//! * [`named_strings`]: the named strings of `GL_ARB_shading_language_include`
//!   and `glCompileShaderIncludeARB`.
//!
//! # Threading
//!
//! The rules are GL's rules for contexts, expressed through ownership:
//!
//! * A context is current on at most one thread at a time. Here the thread that
//!   holds the `Context` (or a `&mut` to it) is the one it is current on. Commands
//!   take `&mut self` and `Context` is not `Sync`, so the compiler enforces that
//!   no two threads issue calls to one context at once.
//! * A context may be made current on another thread: [`Context`] is `Send`, so
//!   it can be moved to another thread (as `glXMakeCurrent` / `eglMakeCurrent` on
//!   that thread would), used there, and moved back.
//! * A context is moved, not shared: `Context` is not `Sync`, and there are no
//!   share groups, so objects (buffers, textures, programs) belong to the
//!   context that created them. Handles from one context mean nothing in
//!   another.
//! * Contexts are independent: any number of contexts may draw at the same time
//!   on different threads, and each produces the images it would produce alone.
//!   What they share is read-only or internally synchronized (the driver's JIT
//!   compiler, the GLSL front end's built-in tables).
//! * A context compiles and links on its own compiler threads
//!   (`GL_KHR_parallel_shader_compile`, `RGL_COMPILE_THREADS`,
//!   [`Context::max_shader_compiler_threads`]). A job owns copies of what it
//!   reads and hands back its result through a shared slot, so the context stays
//!   `Send`; the threads exit once the context is dropped and their queue is
//!   empty.
#![deny(missing_docs)]

mod background;
pub mod buffer;
pub mod buffer_map;
mod builtin_uniforms;
pub mod compute;
pub mod context;
pub mod disk_cache;
pub mod draw;
mod driver_state;
pub mod error;
mod fixed_function;
pub mod fixed_state;
pub mod framebuffer;
pub mod gl;
pub mod image_units;
pub mod limits;
pub mod matrices;
pub mod named_strings;
pub mod names;
pub mod pixels;
pub mod program_interface;
pub mod queries;
pub mod query;
pub mod renderbuffer;
pub mod sampler;
pub mod shader;
pub mod state_queries;
pub mod subroutines;
pub mod sync;
pub mod texture;
pub mod transfer;
pub mod uniforms;
pub mod variants;
pub mod version;
pub mod vertex_array;

pub use context::Context;
pub use error::{CreateError, GlError};
pub use names::{
    Buffer, Fence, Framebuffer, Program, Query, Renderbuffer, Sampler, Shader, Texture,
    UniformLocation, VertexArray,
};
