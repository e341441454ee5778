//! `rgl-backend`: the driver interface ([`Driver`]) and the software driver
//! ([`SoftDriver`]), a tiled, threaded CPU rasterizer.
//!
//! * [`driver`]: the gallium-like trait, handles and state descriptions.
//! * [`exec`]: the lane interface shaders run behind ([`ShaderExec`]) and closure shaders.
//! * [`format`]: surface/texture/vertex formats and their conversions.
//! * [`texture`]: sampling over lanes.
//! * [`soft`]: the software driver's pipeline.
#![deny(missing_docs)]

pub mod driver;
pub mod error;
pub mod exec;
pub mod format;
pub mod soft;
pub mod texture;

pub use driver::Driver;
pub use error::{Error, Result};
pub use exec::{ShaderExec, ShaderInfo};
pub use soft::SoftDriver;
