//! [`RglContext`]: the full runner's [`GlContext`](super::exec::GlContext)
//! over rgl's state tracker (`rgl_state::Context` on the software driver):
//! [`RglGl`], a [`GlApi`] adapter forwarding to the state tracker's
//! glow-shaped API, under the shared [`GlRunner`]. rgl has the runner check
//! for a GL error after every step (naming it) and adds the context's
//! `last_draw_error` text to a failed draw.
//!
//! Where the state tracker's API has no entry point for a query piglit makes
//! (`glGetUniformIndices`), the adapter derives it from the indexed query it
//! does have (`get_active_uniform`), stopping at the first index it rejects.

use rgl_backend::registry;
use rgl_state::{
    Buffer, Context, Framebuffer, Program, Renderbuffer, Shader, Texture, UniformLocation,
    VertexArray,
};

use super::command::UniformBase;
use super::gl_api::{creating_gl_methods, rgl_shaped_gl_methods, shared_gl_methods, GlApi};
use super::gl_plan;
use super::gl_runner::GlRunner;
use super::support::Capabilities;

/// Largest framebuffer side rgl's default framebuffer takes.
const MAX_SIZE: u32 = rgl_state::limits::MAX_RENDERBUFFER_SIZE;

/// rgl's state tracker as a runner context.
pub type RglContext = GlRunner<RglGl>;

/// rgl's state tracker as the runner's [`GlApi`].
pub struct RglGl(Context);

/// Worker threads of the software driver in a runner context: `RGL_THREADS`,
/// else 1 (the runner already runs several files at once).
fn driver_threads() -> usize {
    std::env::var("RGL_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(1)
}

impl Default for GlRunner<RglGl> {
    fn default() -> Self {
        GlRunner::<RglGl>::new()
    }
}

impl GlRunner<RglGl> {
    /// A context on the driver `RGL_DRIVER` names (else the default one) with a
    /// 250x250 default framebuffer.
    pub fn new() -> RglContext {
        let config = registry::DriverConfig {
            threads: driver_threads(),
        };
        RglContext::with_driver(registry::create_from_env(&config))
    }

    /// A context on `driver` (a differential test's configured driver) with a
    /// 250x250 default framebuffer.
    pub fn with_driver(driver: Box<dyn rgl_backend::Driver>) -> RglContext {
        GlRunner::with_api(RglGl(Context::with_driver(driver, 250, 250)))
    }
}

/// `GlApi` methods that are the state tracker's call of the same name and
/// arguments.
macro_rules! forward_to_rgl {
    ($(
        $(#[$doc:meta])*
        fn $name:ident(&mut self $(, $arg:ident: $ty:ty)* $(,)?) $(-> $ret:ty)?;
    )*) => {$(
        fn $name(&mut self $(, $arg: $ty)*) $(-> $ret)? {
            self.0.$name($($arg),*)
        }
    )*};
}

/// `GlApi` methods that create an object: the state tracker's call of the
/// same name and arguments, its [`rgl_state::CreateError`] as the message.
macro_rules! forward_creating_to_rgl {
    ($(
        $(#[$doc:meta])*
        fn $name:ident(&mut self $(, $arg:ident: $ty:ty)* $(,)?) -> $ret:ty;
    )*) => {$(
        fn $name(&mut self $(, $arg: $ty)*) -> $ret {
            self.0.$name($($arg),*).map_err(|e| e.to_string())
        }
    )*};
}

impl GlApi for RglGl {
    fn named_string(&mut self, name: &str, string: &str) -> Result<(), String> {
        self.0
            .named_string(rgl_state::gl::SHADER_INCLUDE_ARB, name, string);
        Ok(())
    }

    fn compile_shader_include(&mut self, shader: Shader, paths: &[&str]) -> Result<(), String> {
        self.0.compile_shader_include(shader, paths);
        Ok(())
    }

    type Program = Program;
    type Shader = Shader;
    type Buffer = Buffer;
    type VertexArray = VertexArray;
    type Texture = Texture;
    type Framebuffer = Framebuffer;
    type Renderbuffer = Renderbuffer;
    type UniformLocation = UniformLocation;

    const EAGER_CHECKS: bool = true;
    const EXPLICIT_PIXEL_STATE: bool = false;
    const RECT_PATCHES_UNSUPPORTED: &'static str =
        "GL_PATCHES (tessellation) is not supported by rgl";
    const ARRAY_PATCHES_UNSUPPORTED: Option<&'static str> =
        Some("GL_PATCHES (tessellation) is not supported by rgl");

    fn capabilities(&self) -> Capabilities {
        Capabilities::rgl_link_only()
    }

    fn describe(&self) -> String {
        format!("rgl software rasterizer, {} thread(s)", driver_threads())
    }

    fn framebuffer_size(&self, width: u32, height: u32) -> Result<(i32, i32), String> {
        if width == 0 || height == 0 || width > MAX_SIZE || height > MAX_SIZE {
            return Err(format!(
                "{width}x{height} is outside rgl's framebuffer sizes (1..={MAX_SIZE})"
            ));
        }
        Ok((width as i32, height as i32))
    }

    fn unsupported_uniform(&self, base: UniformBase) -> String {
        format!(
            "{} uniforms are not supported by rgl",
            match base {
                UniformBase::Double => "double",
                UniformBase::Int64 => "int64_t",
                UniformBase::Uint64 => "uint64_t",
                UniformBase::Handle => "bindless handle",
                _ => "mismatched",
            }
        )
    }

    fn last_draw_error(&mut self) -> Option<String> {
        self.0.last_draw_error()
    }

    fn bind_frag_data_location_indexed(
        &mut self,
        program: Program,
        color: u32,
        index: u32,
        name: &str,
    ) -> Result<(), String> {
        self.0
            .bind_frag_data_location_indexed(program, color, index, name);
        Ok(())
    }

    fn program_resource_index(
        &mut self,
        program: Program,
        interface: u32,
        name: &str,
    ) -> Result<Option<u32>, String> {
        Ok(self.0.get_program_resource_index(program, interface, name))
    }

    fn program_resource_i32(
        &mut self,
        program: Program,
        interface: u32,
        index: u32,
        prop: u32,
    ) -> Result<Option<i32>, String> {
        let v = self
            .0
            .get_program_resource_i32(program, interface, index, &[prop]);
        Ok(v.first().copied())
    }

    /// The index of the first active uniform (`glGetActiveUniform` until the
    /// first index the context rejects) that names `name`.
    fn uniform_index(&mut self, program: Program, name: &str) -> Option<u32> {
        let mut names = Vec::new();
        while let Some(info) = self.0.get_active_uniform(program, names.len() as u32) {
            names.push(info.name);
        }
        // The index past the end recorded GL_INVALID_VALUE.
        let _ = self.0.get_error();
        names
            .iter()
            .position(|n| gl_plan::same_uniform(n, name))
            .map(|i| i as u32)
    }

    fn get_active_uniform_parameter_i32(
        &mut self,
        program: Program,
        index: u32,
        pname: u32,
    ) -> Option<i32> {
        Some(
            self.0
                .get_active_uniform_parameter_i32(program, index, pname),
        )
    }

    fn uniform_location(&self, location: u32) -> UniformLocation {
        UniformLocation(location)
    }

    fn clear_depth(&mut self, depth: f64) {
        self.0.clear_depth_f64(depth)
    }

    shared_gl_methods!(forward_to_rgl);
    creating_gl_methods!(forward_creating_to_rgl);
    rgl_shaped_gl_methods!(forward_to_rgl);
}
