//! `rgl-state`: the GL state tracker. A [`Context`] exposes a Rust-native GL API
//! whose names and shapes follow the `glow` crate (`create_shader`,
//! `uniform_4_f32`, ...), records GL errors with the spec's semantics, compiles and
//! links through rgl's pipeline, and at draw time builds shader variants for the
//! driver.
//!
//! * [`context`]: the context, the error flag, string and limit queries.
//! * [`shader`]: shader and program objects, compile and link.
//! * [`uniforms`]: uniform locations, setters, queries, block bindings.
//! * [`buffer`]: buffer objects; [`vertex_array`]: VAOs and attribute arrays.
//! * [`fixed_state`]: rasterizer and per-fragment state; [`matrices`]: the
//!   compatibility matrix stacks and current color / texture coordinates.
//! * [`texture`]: textures, samplers, units; [`framebuffer`]: FBOs, renderbuffers,
//!   the default framebuffer, clears and read-back.
//! * [`draw`]: the draw calls; [`variants`]: draw-time variant keys, the LRU
//!   variant cache and its counters.
//! * [`sampler`]: texture parameters and sampler objects; [`pixels`]: pixel
//!   transfer formats; [`renderbuffer`]: renderbuffers; [`transfer`]: clears,
//!   read-back, blits, copies and mipmap generation.
//! * [`gl`]: GL enum values; [`limits`]: advertised limits; [`names`]: handles.
#![deny(missing_docs)]

pub mod buffer;
mod builtin_uniforms;
pub mod context;
pub mod draw;
mod driver_state;
pub mod error;
mod fixed_function;
pub mod fixed_state;
pub mod framebuffer;
pub mod gl;
pub mod limits;
pub mod matrices;
pub mod names;
pub mod pixels;
pub mod queries;
pub mod renderbuffer;
pub mod sampler;
pub mod shader;
pub mod texture;
pub mod transfer;
pub mod uniforms;
pub mod variants;
pub mod vertex_array;

pub use context::Context;
pub use error::{CreateError, GlError};
pub use names::{
    Buffer, Framebuffer, Program, Renderbuffer, Sampler, Shader, Texture, UniformLocation,
    VertexArray,
};
