//! [`HostContext`]: the `--peer host` [`GlContext`](super::exec::GlContext),
//! the machine's own GL (Mesa llvmpipe on the CI machines) through EGL without
//! a window: glutin opens the first EGL device, creates a desktop GL
//! compatibility-profile context (so GLSL 1.10 tests and `gl_Vertex` work) and
//! makes it current without a surface; rendering goes to a framebuffer object
//! of RGBA8 colour and depth/stencil renderbuffers, as piglit's `-fbo` mode
//! does. The runner's GL logic is the shared [`GlRunner`]; this file is its
//! [`GlApi`] adapter, [`HostGl`]: GL calls go through glow, and the
//! compatibility-profile entry points glow does not wrap (`glClipPlane`, the
//! matrix stack, `glColor4f`, `glVertexPointer`, …) are loaded from EGL by
//! name. All the unsafe calls of the runner are here.
//!
//! glutin loads libEGL at run time: without it (or without a GL driver),
//! [`HostContext::new`] returns why, and the runner skips the peer.

use std::ffi::{c_void, CStr, CString};

use glow::HasContext;
use glutin::api::egl::context::PossiblyCurrentContext;
use glutin::api::egl::device::Device;
use glutin::api::egl::display::Display;
use glutin::config::{ConfigSurfaceTypes, ConfigTemplateBuilder};
use glutin::context::{ContextApi, ContextAttributesBuilder, GlProfile};
use glutin::display::GlDisplay;

use super::command::UniformBase;
use super::gl_api::{creating_gl_methods, shared_gl_methods, GlApi};
use super::gl_runner::GlRunner;
use super::support::Capabilities;

/// Compatibility-profile entry points glow has no wrapper for.
struct Compat {
    clip_plane: unsafe extern "system" fn(u32, *const f64),
    matrix_mode: unsafe extern "system" fn(u32),
    load_identity: unsafe extern "system" fn(),
    ortho: unsafe extern "system" fn(f64, f64, f64, f64, f64, f64),
    frustum: unsafe extern "system" fn(f64, f64, f64, f64, f64, f64),
    color_4f: unsafe extern "system" fn(f32, f32, f32, f32),
    multi_tex_coord_4f: unsafe extern "system" fn(u32, f32, f32, f32, f32),
    shade_model: unsafe extern "system" fn(u32),
    provoking_vertex: unsafe extern "system" fn(u32),
    vertex_pointer: unsafe extern "system" fn(i32, u32, i32, *const c_void),
    normal_pointer: unsafe extern "system" fn(u32, i32, *const c_void),
    color_pointer: unsafe extern "system" fn(i32, u32, i32, *const c_void),
    tex_coord_pointer: unsafe extern "system" fn(i32, u32, i32, *const c_void),
    enable_client_state: unsafe extern "system" fn(u32),
    client_active_texture: unsafe extern "system" fn(u32),
    bind_frag_data_location_indexed: unsafe extern "system" fn(u32, u32, u32, *const i8),
    /// `glGetSubroutineUniformLocation` (GL 4.0; `None` on an older host GL).
    get_subroutine_uniform_location: Option<unsafe extern "system" fn(u32, u32, *const i8) -> i32>,
    /// `glGetSubroutineIndex` (GL 4.0).
    get_subroutine_index: Option<unsafe extern "system" fn(u32, u32, *const i8) -> u32>,
    /// `glGetProgramStageiv` (GL 4.0).
    get_program_stage_iv: Option<unsafe extern "system" fn(u32, u32, u32, *mut i32)>,
    /// `glUniformSubroutinesuiv` (GL 4.0).
    uniform_subroutines_uiv: Option<unsafe extern "system" fn(u32, i32, *const u32)>,
    /// `glGetProgramResourceIndex` (GL 4.3; `None` on an older host GL).
    get_program_resource_index: Option<unsafe extern "system" fn(u32, u32, *const i8) -> u32>,
    /// `glGetProgramResourceiv` (GL 4.3). glow's wrapper asks for the value
    /// count with a zero-sized buffer, to which Mesa answers 0.
    #[allow(clippy::type_complexity)]
    get_program_resource_iv:
        Option<unsafe extern "system" fn(u32, u32, u32, i32, *const u32, i32, *mut i32, *mut i32)>,
}

/// `glNamedStringARB(type, namelen, name, stringlen, string)`.
type NamedStringFn = unsafe extern "system" fn(u32, i32, *const i8, i32, *const i8);
/// `glCompileShaderIncludeARB(shader, count, path, length)`.
type CompileShaderIncludeFn = unsafe extern "system" fn(u32, i32, *const *const i8, *const i32);

/// `GL_ARB_shading_language_include` entry points, when the host GL has them.
struct Include {
    named_string: NamedStringFn,
    compile_shader_include: CompileShaderIncludeFn,
}

impl Include {
    fn load(display: &Display) -> Option<Include> {
        let named = display.get_proc_address(c"glNamedStringARB");
        let compile = display.get_proc_address(c"glCompileShaderIncludeARB");
        if named.is_null() || compile.is_null() {
            return None;
        }
        // SAFETY: non-null entry points of these names, whose C signatures
        // are those of the fields.
        unsafe {
            Some(Include {
                named_string: std::mem::transmute::<*const c_void, NamedStringFn>(named),
                compile_shader_include: std::mem::transmute::<*const c_void, CompileShaderIncludeFn>(
                    compile,
                ),
            })
        }
    }
}

impl Compat {
    fn load(display: &Display) -> Result<Compat, String> {
        /// The entry point `name` as a function pointer of type `F`.
        ///
        /// # Safety
        /// `F` must be the `extern "system"` signature of `name`.
        unsafe fn get<F: Copy>(display: &Display, name: &CStr) -> Result<F, String> {
            const { assert!(std::mem::size_of::<F>() == std::mem::size_of::<*const c_void>()) };
            let p = display.get_proc_address(name);
            if p.is_null() {
                Err(format!("the host GL has no {}", name.to_string_lossy()))
            } else {
                // SAFETY: a non-null entry point of the signature F (caller).
                Ok(unsafe { std::mem::transmute_copy::<*const c_void, F>(&p) })
            }
        }
        // SAFETY: each pointer is the named GL entry point, whose C signature
        // is the one of the field it is stored in.
        unsafe {
            Ok(Compat {
                clip_plane: get(display, c"glClipPlane")?,
                matrix_mode: get(display, c"glMatrixMode")?,
                load_identity: get(display, c"glLoadIdentity")?,
                ortho: get(display, c"glOrtho")?,
                frustum: get(display, c"glFrustum")?,
                color_4f: get(display, c"glColor4f")?,
                multi_tex_coord_4f: get(display, c"glMultiTexCoord4f")?,
                shade_model: get(display, c"glShadeModel")?,
                provoking_vertex: get(display, c"glProvokingVertex")?,
                vertex_pointer: get(display, c"glVertexPointer")?,
                normal_pointer: get(display, c"glNormalPointer")?,
                color_pointer: get(display, c"glColorPointer")?,
                tex_coord_pointer: get(display, c"glTexCoordPointer")?,
                enable_client_state: get(display, c"glEnableClientState")?,
                client_active_texture: get(display, c"glClientActiveTexture")?,
                bind_frag_data_location_indexed: get(display, c"glBindFragDataLocationIndexed")?,
                get_subroutine_uniform_location: get(display, c"glGetSubroutineUniformLocation")
                    .ok(),
                get_subroutine_index: get(display, c"glGetSubroutineIndex").ok(),
                get_program_stage_iv: get(display, c"glGetProgramStageiv").ok(),
                uniform_subroutines_uiv: get(display, c"glUniformSubroutinesuiv").ok(),
                get_program_resource_index: get(display, c"glGetProgramResourceIndex").ok(),
                get_program_resource_iv: get(display, c"glGetProgramResourceiv").ok(),
            })
        }
    }
}

type GlProgram = <glow::Context as HasContext>::Program;
type GlShader = <glow::Context as HasContext>::Shader;
type GlBuffer = <glow::Context as HasContext>::Buffer;
type GlVao = <glow::Context as HasContext>::VertexArray;
type GlTexture = <glow::Context as HasContext>::Texture;
type GlFramebuffer = <glow::Context as HasContext>::Framebuffer;
type GlRenderbuffer = <glow::Context as HasContext>::Renderbuffer;
type GlLocation = <glow::Context as HasContext>::UniformLocation;

/// The host's GL as a runner context.
pub type HostContext = GlRunner<HostGl>;

/// The host's GL (glow plus the compatibility entry points) as the runner's
/// [`GlApi`]. Its context is made current on the creating thread in
/// [`HostContext::new`] and stays current for the adapter's life: that is
/// what makes the glow and compatibility calls below sound.
pub struct HostGl {
    gl: glow::Context,
    compat: Compat,
    /// `None`: the host GL has no named strings.
    include: Option<Include>,
    renderer: String,
    // Dropped last: the context, then the display.
    _context: PossiblyCurrentContext,
    _display: Display,
}

impl GlRunner<HostGl> {
    /// A current compatibility-profile context on the first EGL device, or why
    /// there is none.
    pub fn new() -> Result<HostContext, String> {
        HostContext::with_profile(GlProfile::Compatibility)
    }

    /// A current context of `profile` on the first EGL device, or why there
    /// is none.
    pub fn with_profile(profile: GlProfile) -> Result<HostContext, String> {
        let devices: Vec<Device> = Device::query_devices()
            .map_err(|e| {
                format!("EGL not available (loading libEGL.so.1 and listing devices: {e})")
            })?
            .collect();
        let device = devices
            .first()
            .ok_or_else(|| "EGL not available (no EGL devices)".to_string())?;
        // SAFETY: the device platform needs no native display.
        let display = unsafe { Display::with_device(device, None) }
            .map_err(|e| format!("EGL display: {e}"))?;
        let template = ConfigTemplateBuilder::new()
            .with_surface_type(ConfigSurfaceTypes::empty())
            .build();
        // SAFETY: the display is alive for the call.
        let config = unsafe { display.find_configs(template) }
            .map_err(|e| format!("EGL configs: {e}"))?
            .next()
            .ok_or_else(|| "no surfaceless EGL config".to_string())?;
        let attrs = ContextAttributesBuilder::new()
            .with_profile(profile)
            .with_context_api(ContextApi::OpenGl(match profile {
                // A core context must ask for a version (EGL's default is
                // 1.0, which has no core profile); 3.2 gives the highest the
                // implementation has, as piglit's waffle does.
                GlProfile::Core => Some(glutin::context::Version::new(3, 2)),
                GlProfile::Compatibility => None,
            }))
            .build(None);
        // SAFETY: the config belongs to this display.
        let context = unsafe { display.create_context(&config, &attrs) }
            .map_err(|e| format!("GL context: {e}"))?
            .make_current_surfaceless()
            .map_err(|e| format!("make current: {e}"))?;
        // SAFETY: the context is current on this thread; the symbols come from
        // its display.
        let gl = unsafe {
            glow::Context::from_loader_function_cstr(|name: &CStr| display.get_proc_address(name))
        };
        let compat = Compat::load(&display)?;
        let include = Include::load(&display);
        // SAFETY: a context is current.
        let renderer = unsafe {
            format!(
                "{} ({})",
                gl.get_parameter_string(glow::RENDERER),
                gl.get_parameter_string(glow::VERSION)
            )
        };
        Ok(GlRunner::with_api(HostGl {
            gl,
            compat,
            include,
            renderer,
            _context: context,
            _display: display,
        }))
    }
}

/// Why the host cannot run a test with `[shader include]`.
const NO_INCLUDE: &str =
    "the host GL has no glNamedStringARB/glCompileShaderIncludeARB (GL_ARB_shading_language_include)";

/// A length as GL's `GLint`.
fn len_i32<T>(items: &[T]) -> Result<i32, String> {
    i32::try_from(items.len()).map_err(|_| "string too long for GL".to_string())
}

/// `GlApi` methods that are the glow call of the same name and arguments.
macro_rules! forward_to_glow {
    ($(
        $(#[$doc:meta])*
        fn $name:ident(&mut self $(, $arg:ident: $ty:ty)* $(,)?) $(-> $ret:ty)?;
    )*) => {$(
        fn $name(&mut self $(, $arg: $ty)*) $(-> $ret)? {
            // SAFETY: the context is current (see `HostGl`); the arguments
            // are plain values, slices glow passes with their lengths, and
            // names this context created.
            unsafe { self.gl.$name($($arg),*) }
        }
    )*};
}

/// Calls a compatibility entry point of `self.compat`.
macro_rules! compat_call {
    ($self:ident.$name:ident($($arg:expr),*)) => {
        // SAFETY: the context is current (see `HostGl`) and the pointer is
        // the entry point of that name (`Compat::load`); a pointer argument
        // is either read during the call (a plane, a NUL-terminated name) or,
        // for the array pointers, a byte offset into the bound array buffer.
        unsafe { ($self.compat.$name)($($arg),*) }
    };
}

impl HostGl {
    /// `offset` into the bound array buffer as the pointer argument of
    /// `glVertexPointer` and its kin.
    fn array_pointer(offset: i32) -> *const c_void {
        offset as usize as *const c_void
    }
}

impl GlApi for HostGl {
    type Program = GlProgram;
    type Shader = GlShader;
    type Buffer = GlBuffer;
    type VertexArray = GlVao;
    type Texture = GlTexture;
    type Framebuffer = GlFramebuffer;
    type Renderbuffer = GlRenderbuffer;
    type UniformLocation = GlLocation;

    const EAGER_CHECKS: bool = false;
    const EXPLICIT_PIXEL_STATE: bool = true;
    const RECT_PATCHES_UNSUPPORTED: &'static str =
        "`draw rect patch` (tessellation) is not supported by this runner";
    const ARRAY_PATCHES_UNSUPPORTED: Option<&'static str> = None;

    fn capabilities(&self) -> Capabilities {
        let mut caps = Capabilities::rgl_link_only();
        let version = self.gl.version();
        caps.gl_version = version.major * 10 + version.minor;
        caps.core_profile = caps.gl_version >= 32;
        caps.compat_profile = true;
        caps.desktop_extensions = self.gl.supported_extensions().iter().cloned().collect();
        caps.desktop_extensions.sort();
        let es3 = caps
            .desktop_extensions
            .iter()
            .any(|e| e == "GL_ARB_ES3_compatibility");
        caps.es_version = if es3 { 30 } else { 0 };
        caps.es_extensions = caps.desktop_extensions.clone();
        // SAFETY: the context is current.
        let glsl = unsafe { self.gl.get_parameter_string(glow::SHADING_LANGUAGE_VERSION) };
        let desktop = glsl_number(&glsl).unwrap_or(110);
        let es_max = match caps.es_version {
            0 => 0,
            _ if caps
                .desktop_extensions
                .iter()
                .any(|e| e == "GL_ARB_ES3_2_compatibility") =>
            {
                320
            }
            _ => 300,
        };
        caps.glsl_versions = Some((desktop, es_max));
        for (pname, value) in &mut caps.limits {
            // SAFETY: the context is current.
            let v = unsafe { self.gl.get_parameter_i32(*pname) };
            // SAFETY: as above; clears an unknown-enum error.
            if unsafe { self.gl.get_error() } == glow::NO_ERROR {
                *value = i64::from(v);
            }
        }
        caps
    }

    fn describe(&self) -> String {
        self.renderer.clone()
    }

    fn framebuffer_size(&self, width: u32, height: u32) -> Result<(i32, i32), String> {
        Ok((
            i32::try_from(width).map_err(|_| "framebuffer too wide".to_string())?,
            i32::try_from(height).map_err(|_| "framebuffer too tall".to_string())?,
        ))
    }

    fn unsupported_uniform(&self, _base: UniformBase) -> String {
        "64-bit and bindless uniforms are not supported by this runner".into()
    }

    /// The host keeps no account beyond its GL error.
    fn last_draw_error(&mut self) -> Option<String> {
        None
    }

    shared_gl_methods!(forward_to_glow);
    creating_gl_methods!(forward_to_glow);

    fn named_string(&mut self, name: &str, string: &str) -> Result<(), String> {
        let include = self.include.as_ref().ok_or(NO_INCLUDE)?;
        let lengths = (len_i32(name.as_bytes())?, len_i32(string.as_bytes())?);
        // SAFETY: a context is current (`HostContext::new`); the pointers
        // and lengths describe live strings the call copies.
        unsafe {
            (include.named_string)(
                0x8DAE, // GL_SHADER_INCLUDE_ARB
                lengths.0,
                name.as_ptr().cast(),
                lengths.1,
                string.as_ptr().cast(),
            );
        }
        Ok(())
    }

    fn compile_shader_include(&mut self, shader: GlShader, paths: &[&str]) -> Result<(), String> {
        let include = self.include.as_ref().ok_or(NO_INCLUDE)?;
        let pointers: Vec<*const i8> = paths.iter().map(|p| p.as_ptr().cast()).collect();
        let lengths = paths
            .iter()
            .map(|p| len_i32(p.as_bytes()))
            .collect::<Result<Vec<_>, _>>()?;
        let count = len_i32(paths)?;
        // SAFETY: a context is current; `pointers` and `lengths` hold
        // `count` entries describing live strings the call reads.
        unsafe {
            (include.compile_shader_include)(
                shader.0.get(),
                count,
                pointers.as_ptr(),
                lengths.as_ptr(),
            );
        }
        Ok(())
    }

    fn bind_frag_data_location_indexed(
        &mut self,
        program: GlProgram,
        color: u32,
        index: u32,
        name: &str,
    ) -> Result<(), String> {
        let name = CString::new(name).map_err(|e| e.to_string())?;
        let program = program.0.get();
        // `name` outlives the call, which copies it.
        compat_call!(self.bind_frag_data_location_indexed(program, color, index, name.as_ptr()));
        Ok(())
    }

    fn program_resource_index(
        &mut self,
        program: GlProgram,
        interface: u32,
        name: &str,
    ) -> Result<Option<u32>, String> {
        let f = self
            .compat
            .get_program_resource_index
            .ok_or("the host GL has no glGetProgramResourceIndex")?;
        let name = CString::new(name).map_err(|e| e.to_string())?;
        // SAFETY: the context is current (see `HostGl`), `f` is the entry
        // point with this C signature, and `name` outlives the call.
        let index = unsafe { f(program.0.get(), interface, name.as_ptr()) };
        Ok((index != u32::MAX).then_some(index))
    }

    fn program_resource_i32(
        &mut self,
        program: GlProgram,
        interface: u32,
        index: u32,
        prop: u32,
    ) -> Result<Option<i32>, String> {
        let f = self
            .compat
            .get_program_resource_iv
            .ok_or("the host GL has no glGetProgramResourceiv")?;
        let mut length = 0i32;
        let mut value = [0i32; 16];
        // SAFETY: the context is current (see `HostGl`), `f` is the entry
        // point with this C signature, and the buffers outlive the call with
        // the sizes passed.
        unsafe {
            f(
                program.0.get(),
                interface,
                index,
                1,
                &prop,
                value.len() as i32,
                &mut length,
                value.as_mut_ptr(),
            )
        };
        Ok((length > 0).then_some(value[0]))
    }

    fn uniform_index(&mut self, program: GlProgram, name: &str) -> Option<u32> {
        // SAFETY: the context is current (see `HostGl`).
        let found = unsafe { self.gl.get_uniform_indices(program, &[name]) };
        found.first().copied().flatten()
    }

    fn get_active_uniform_parameter_i32(
        &mut self,
        program: GlProgram,
        index: u32,
        pname: u32,
    ) -> Option<i32> {
        // SAFETY: the context is current (see `HostGl`).
        let v = unsafe {
            self.gl
                .get_active_uniforms_parameter(program, &[index], pname)
        };
        v.first().copied()
    }

    fn vertex_pointer(&mut self, size: i32, ty: u32, stride: i32, offset: i32) {
        let ptr = Self::array_pointer(offset);
        compat_call!(self.vertex_pointer(size, ty, stride, ptr));
    }

    fn normal_pointer(&mut self, ty: u32, stride: i32, offset: i32) {
        let ptr = Self::array_pointer(offset);
        compat_call!(self.normal_pointer(ty, stride, ptr));
    }

    fn color_pointer(&mut self, size: i32, ty: u32, stride: i32, offset: i32) {
        let ptr = Self::array_pointer(offset);
        compat_call!(self.color_pointer(size, ty, stride, ptr));
    }

    fn tex_coord_pointer(&mut self, size: i32, ty: u32, stride: i32, offset: i32) {
        let ptr = Self::array_pointer(offset);
        compat_call!(self.tex_coord_pointer(size, ty, stride, ptr));
    }

    fn enable_client_state(&mut self, array: u32) {
        compat_call!(self.enable_client_state(array));
    }

    fn client_active_texture(&mut self, unit: u32) {
        compat_call!(self.client_active_texture(unit));
    }

    fn uniform_location(&self, location: u32) -> GlLocation {
        glow::NativeUniformLocation(location)
    }

    fn tex_image_1d(
        &mut self,
        target: u32,
        level: i32,
        internal: i32,
        width: i32,
        border: i32,
        format: u32,
        ty: u32,
        pixels: Option<&[u8]>,
    ) {
        let px = glow::PixelUnpackData::Slice(pixels);
        // SAFETY: the context is current (see `HostGl`); glow passes the
        // slice, which the plan sized for the image.
        unsafe {
            self.gl
                .tex_image_1d(target, level, internal, width, border, format, ty, px)
        }
    }

    fn tex_image_2d(
        &mut self,
        target: u32,
        level: i32,
        internal: i32,
        width: i32,
        height: i32,
        border: i32,
        format: u32,
        ty: u32,
        pixels: Option<&[u8]>,
    ) {
        let px = glow::PixelUnpackData::Slice(pixels);
        // SAFETY: as in `tex_image_1d`.
        unsafe {
            self.gl.tex_image_2d(
                target, level, internal, width, height, border, format, ty, px,
            )
        }
    }

    fn tex_image_3d(
        &mut self,
        target: u32,
        level: i32,
        internal: i32,
        width: i32,
        height: i32,
        depth: i32,
        border: i32,
        format: u32,
        ty: u32,
        pixels: Option<&[u8]>,
    ) {
        let px = glow::PixelUnpackData::Slice(pixels);
        // SAFETY: as in `tex_image_1d`.
        unsafe {
            self.gl.tex_image_3d(
                target, level, internal, width, height, depth, border, format, ty, px,
            )
        }
    }

    fn clear_depth(&mut self, depth: f64) {
        // SAFETY: the context is current (see `HostGl`).
        unsafe { self.gl.clear_depth(depth) }
    }

    fn clip_plane(&mut self, plane: u32, equation: [f64; 4]) {
        // The equation outlives the call, which copies it.
        compat_call!(self.clip_plane(plane, equation.as_ptr()));
    }

    fn get_subroutine_uniform_location(
        &mut self,
        program: GlProgram,
        shadertype: u32,
        name: &str,
    ) -> i32 {
        let (Some(f), Ok(name)) = (
            self.compat.get_subroutine_uniform_location,
            std::ffi::CString::new(name),
        ) else {
            return -1;
        };
        // SAFETY: the context is current (see `HostGl`); the entry point is
        // the one of that name and `name` is NUL-terminated for the call.
        unsafe { f(program.0.get(), shadertype, name.as_ptr()) }
    }

    fn get_subroutine_index(&mut self, program: GlProgram, shadertype: u32, name: &str) -> u32 {
        let (Some(f), Ok(name)) = (
            self.compat.get_subroutine_index,
            std::ffi::CString::new(name),
        ) else {
            return glow::INVALID_INDEX;
        };
        // SAFETY: as in `get_subroutine_uniform_location`.
        unsafe { f(program.0.get(), shadertype, name.as_ptr()) }
    }

    fn get_program_stage_iv(&mut self, program: GlProgram, shadertype: u32, pname: u32) -> i32 {
        let Some(f) = self.compat.get_program_stage_iv else {
            return 0;
        };
        let mut value = 0i32;
        // SAFETY: the context is current; the entry point writes one integer.
        unsafe { f(program.0.get(), shadertype, pname, &mut value) };
        value
    }

    fn uniform_subroutines_uiv(&mut self, shadertype: u32, indices: &[u32]) {
        let Some(f) = self.compat.uniform_subroutines_uiv else {
            return;
        };
        let count = i32::try_from(indices.len()).unwrap_or(i32::MAX);
        // SAFETY: the context is current; the entry point reads `count`
        // indices from the slice during the call.
        unsafe { f(shadertype, count, indices.as_ptr()) }
    }

    fn matrix_mode(&mut self, mode: u32) {
        compat_call!(self.matrix_mode(mode));
    }

    fn load_identity(&mut self) {
        compat_call!(self.load_identity());
    }

    fn ortho(&mut self, l: f64, r: f64, b: f64, t: f64, n: f64, f: f64) {
        compat_call!(self.ortho(l, r, b, t, n, f));
    }

    fn frustum(&mut self, l: f64, r: f64, b: f64, t: f64, n: f64, f: f64) {
        compat_call!(self.frustum(l, r, b, t, n, f));
    }

    fn color_4_f32(&mut self, r: f32, g: f32, b: f32, a: f32) {
        compat_call!(self.color_4f(r, g, b, a));
    }

    fn multi_tex_coord_4_f32(&mut self, unit: u32, s: f32, t: f32, r: f32, q: f32) {
        compat_call!(self.multi_tex_coord_4f(unit, s, t, r, q));
    }

    fn shade_model(&mut self, mode: u32) {
        compat_call!(self.shade_model(mode));
    }

    fn provoking_vertex(&mut self, mode: u32) {
        compat_call!(self.provoking_vertex(mode));
    }

    fn read_pixels(
        &mut self,
        x: i32,
        y: i32,
        width: i32,
        height: i32,
        format: u32,
        ty: u32,
        pixels: &mut [u8],
    ) {
        let px = glow::PixelPackData::Slice(Some(pixels));
        // SAFETY: the context is current (see `HostGl`); the runner sizes
        // `pixels` for the rectangle in `format`/`ty` with the pack
        // alignment it set.
        unsafe { self.gl.read_pixels(x, y, width, height, format, ty, px) }
    }
}

/// `X*100+YY` of a `GL_SHADING_LANGUAGE_VERSION` string (`4.50 …`).
fn glsl_number(text: &str) -> Option<u32> {
    let word = text.split_whitespace().next()?;
    let (major, minor) = word.split_once('.')?;
    let minor: String = minor.chars().take_while(char::is_ascii_digit).collect();
    Some(major.parse::<u32>().ok()? * 100 + minor.parse::<u32>().ok()?)
}
