//! [`HostContext`]: the `--peer host` [`GlContext`], the machine's own GL
//! (Mesa llvmpipe on the CI machines) through EGL without a window: glutin
//! opens the first EGL device, creates a desktop GL compatibility-profile
//! context (so GLSL 1.10 tests and `gl_Vertex` work) and makes it current
//! without a surface; rendering goes to a framebuffer object of RGBA8 colour
//! and depth/stencil renderbuffers, as piglit's `-fbo` mode does. GL calls go
//! through glow; the compatibility-profile entry points glow does not wrap
//! (`glClipPlane`, the matrix stack, `glColor4f`, `glVertexPointer`, …) are
//! loaded from EGL by name.
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

use super::command::UniformValues;
use super::command::{TexParam, TextureTarget, UniformBase, UniformTarget, UniformType};
use super::exec::{GlContext, RectDraw, StateChange};
use super::gl_enum::GlEnum;
use super::gl_plan::{self, LegacyArray, ParamValue};
use super::link_only::ProgramShader;
use super::support::Capabilities;
use super::textures::TextureImage;
use super::vertex_data::VertexData;

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
            })
        }
    }
}

type GlProgram = <glow::Context as HasContext>::Program;
type GlBuffer = <glow::Context as HasContext>::Buffer;
type GlVao = <glow::Context as HasContext>::VertexArray;
type GlTexture = <glow::Context as HasContext>::Texture;

/// The host's GL as a runner context.
pub struct HostContext {
    gl: glow::Context,
    compat: Compat,
    renderer: String,
    program: Option<GlProgram>,
    block_buffers: Vec<GlBuffer>,
    vertex_data: Option<GlVao>,
    rect: Option<(GlVao, GlBuffer)>,
    textures: Vec<(u32, GlTexture)>,
    // Dropped last: the context, then the display.
    _context: PossiblyCurrentContext,
    _display: Display,
}

impl HostContext {
    /// A current compatibility-profile context on the first EGL device, or why
    /// there is none.
    pub fn new() -> Result<HostContext, String> {
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
            .with_profile(GlProfile::Compatibility)
            .with_context_api(ContextApi::OpenGl(None))
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
        // SAFETY: a context is current.
        let renderer = unsafe {
            format!(
                "{} ({})",
                gl.get_parameter_string(glow::RENDERER),
                gl.get_parameter_string(glow::VERSION)
            )
        };
        Ok(HostContext {
            gl,
            compat,
            renderer,
            program: None,
            block_buffers: Vec::new(),
            vertex_data: None,
            rect: None,
            textures: Vec::new(),
            _context: context,
            _display: display,
        })
    }

    fn check(&mut self, what: &str) -> Result<(), String> {
        // SAFETY: the context is current.
        match unsafe { self.gl.get_error() } {
            glow::NO_ERROR => Ok(()),
            code => Err(format!("{what}: {}", gl_plan::error_name(code))),
        }
    }

    fn program(&self) -> Result<GlProgram, String> {
        self.program
            .ok_or_else(|| "no program is in use".to_string())
    }

    fn set_texture_param(&mut self, target: u32, pname: u32, value: ParamValue) {
        // SAFETY: the context is current; the texture is bound by the caller.
        unsafe {
            match value {
                ParamValue::Int(v) => self.gl.tex_parameter_i32(target, pname, v),
                ParamValue::Float(v) => self.gl.tex_parameter_f32(target, pname, v),
                ParamValue::Floats(v) => self.gl.tex_parameter_f32_slice(target, pname, &v),
            }
        }
    }

    /// Creates a VAO and an array buffer holding `bytes`, both left bound.
    fn vao_with_buffer(&mut self, bytes: &[u8]) -> Result<(GlVao, GlBuffer), String> {
        // SAFETY: the context is current.
        unsafe {
            let vao = self.gl.create_vertex_array()?;
            let buffer = self.gl.create_buffer()?;
            self.gl.bind_vertex_array(Some(vao));
            self.gl.bind_buffer(glow::ARRAY_BUFFER, Some(buffer));
            self.gl
                .buffer_data_u8_slice(glow::ARRAY_BUFFER, bytes, glow::STATIC_DRAW);
            Ok((vao, buffer))
        }
    }

    fn legacy_pointer(&mut self, array: LegacyArray, size: i32, ty: u32, stride: i32, offset: i32) {
        let ptr = offset as usize as *const c_void;
        let c = &self.compat;
        // SAFETY: the context is current and an array buffer is bound, so the
        // pointer is a byte offset into it.
        unsafe {
            match array {
                LegacyArray::Vertex => {
                    (c.vertex_pointer)(size, ty, stride, ptr);
                    (c.enable_client_state)(gl_plan::compat::VERTEX_ARRAY);
                }
                LegacyArray::Normal => {
                    (c.normal_pointer)(ty, stride, ptr);
                    (c.enable_client_state)(gl_plan::compat::NORMAL_ARRAY);
                }
                LegacyArray::Color => {
                    (c.color_pointer)(size, ty, stride, ptr);
                    (c.enable_client_state)(gl_plan::compat::COLOR_ARRAY);
                }
                LegacyArray::TexCoord(unit) => {
                    (c.client_active_texture)(glow::TEXTURE0.saturating_add(unit));
                    (c.tex_coord_pointer)(size, ty, stride, ptr);
                    (c.enable_client_state)(gl_plan::compat::TEXTURE_COORD_ARRAY);
                    (c.client_active_texture)(glow::TEXTURE0);
                }
            }
        }
    }

    fn uniform_index(&mut self, program: GlProgram, name: &str) -> Option<u32> {
        // SAFETY: the context is current.
        let found = unsafe { self.gl.get_uniform_indices(program, &[name]) };
        found.first().copied().flatten()
    }

    fn block_uniform(
        &mut self,
        program: GlProgram,
        name: &str,
        ty: UniformType,
        values: &UniformValues,
    ) -> Result<(), String> {
        let (base, element) = gl_plan::split_element(name);
        let index = self
            .uniform_index(program, name)
            .or_else(|| self.uniform_index(program, base))
            .ok_or_else(|| format!("uniform {name}: not an active uniform"))?;
        // SAFETY: the context is current.
        let param = |gl: &glow::Context, pname| unsafe {
            gl.get_active_uniforms_parameter(program, &[index], pname)
                .first()
                .copied()
                .unwrap_or(-1)
        };
        let block = param(&self.gl, glow::UNIFORM_BLOCK_INDEX);
        let offset = param(&self.gl, glow::UNIFORM_OFFSET);
        let array_stride = param(&self.gl, glow::UNIFORM_ARRAY_STRIDE);
        let matrix_stride = param(&self.gl, glow::UNIFORM_MATRIX_STRIDE);
        let row_major = param(&self.gl, glow::UNIFORM_IS_ROW_MAJOR) != 0;
        let Some(&buffer) = usize::try_from(block)
            .ok()
            .and_then(|b| self.block_buffers.get(b))
        else {
            return Err(format!(
                "uniform {name}: no location and not in a uniform block"
            ));
        };
        let element_offset = if base != name {
            i64::from(element) * i64::from(array_stride)
        } else {
            0
        };
        let words = host_words(ty, values)?;
        let mut writes: Vec<(i64, Vec<u8>)> = Vec::new();
        if ty.cols > 1 {
            for c in 0..ty.cols {
                for r in 0..ty.rows {
                    let (major, minor) = if row_major { (r, c) } else { (c, r) };
                    let at = i64::from(major) * i64::from(matrix_stride) + i64::from(minor) * 4;
                    let word = words.get((c * ty.rows + r) as usize).copied().unwrap_or(0);
                    writes.push((at, word.to_le_bytes().to_vec()));
                }
            }
        } else {
            writes.push((0, words.iter().flat_map(|w| w.to_le_bytes()).collect()));
        }
        // SAFETY: the context is current.
        unsafe {
            self.gl.bind_buffer(glow::UNIFORM_BUFFER, Some(buffer));
            for (at, bytes) in writes {
                let at = i64::from(offset) + element_offset + at;
                let at = i32::try_from(at)
                    .map_err(|_| format!("uniform {name}: offset {at} out of range"))?;
                self.gl
                    .buffer_sub_data_u8_slice(glow::UNIFORM_BUFFER, at, &bytes);
            }
        }
        self.check(&format!("uniform {name} (block buffer write)"))
    }
}

/// `X*100+YY` of a `GL_SHADING_LANGUAGE_VERSION` string (`4.50 …`).
fn glsl_number(text: &str) -> Option<u32> {
    let word = text.split_whitespace().next()?;
    let (major, minor) = word.split_once('.')?;
    let minor: String = minor.chars().take_while(char::is_ascii_digit).collect();
    Some(major.parse::<u32>().ok()? * 100 + minor.parse::<u32>().ok()?)
}

fn host_words(ty: UniformType, values: &UniformValues) -> Result<Vec<u32>, String> {
    match (ty.base, values) {
        (UniformBase::Float, UniformValues::Float(v)) => {
            Ok(v.iter().map(|f| f.to_bits()).collect())
        }
        (UniformBase::Int, UniformValues::Int(v)) => {
            Ok(v.iter().map(|i| *i as i32 as u32).collect())
        }
        (UniformBase::Uint, UniformValues::Uint(v)) => Ok(v.iter().map(|u| *u as u32).collect()),
        _ => Err("64-bit and bindless uniforms are not supported by this runner".into()),
    }
}

impl GlContext for HostContext {
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

    fn create_framebuffer(&mut self, width: u32, height: u32, depth: bool) -> Result<(), String> {
        let (w, h) = (
            i32::try_from(width).map_err(|_| "framebuffer too wide".to_string())?,
            i32::try_from(height).map_err(|_| "framebuffer too tall".to_string())?,
        );
        // SAFETY: the context is current.
        unsafe {
            let fbo = self.gl.create_framebuffer()?;
            self.gl.bind_framebuffer(glow::FRAMEBUFFER, Some(fbo));
            let color = self.gl.create_renderbuffer()?;
            self.gl.bind_renderbuffer(glow::RENDERBUFFER, Some(color));
            self.gl
                .renderbuffer_storage(glow::RENDERBUFFER, glow::RGBA8, w, h);
            self.gl.framebuffer_renderbuffer(
                glow::FRAMEBUFFER,
                glow::COLOR_ATTACHMENT0,
                glow::RENDERBUFFER,
                Some(color),
            );
            if depth {
                let zs = self.gl.create_renderbuffer()?;
                self.gl.bind_renderbuffer(glow::RENDERBUFFER, Some(zs));
                self.gl
                    .renderbuffer_storage(glow::RENDERBUFFER, glow::DEPTH24_STENCIL8, w, h);
                self.gl.framebuffer_renderbuffer(
                    glow::FRAMEBUFFER,
                    glow::DEPTH_STENCIL_ATTACHMENT,
                    glow::RENDERBUFFER,
                    Some(zs),
                );
            }
            let status = self.gl.check_framebuffer_status(glow::FRAMEBUFFER);
            if status != glow::FRAMEBUFFER_COMPLETE {
                return Err(format!("framebuffer incomplete (0x{status:04x})"));
            }
            self.gl.draw_buffer(glow::COLOR_ATTACHMENT0);
            self.gl.read_buffer(glow::COLOR_ATTACHMENT0);
            self.gl.viewport(0, 0, w, h);
        }
        self.check("framebuffer")
    }

    fn build_program(
        &mut self,
        shaders: &[ProgramShader],
        bindings: &rgl_link::Bindings,
    ) -> Result<Result<(), String>, String> {
        // SAFETY: the context is current for every call below.
        unsafe {
            let program = self.gl.create_program()?;
            for shader in shaders {
                let s = self.gl.create_shader(gl_plan::shader_type(shader.stage))?;
                self.gl.shader_source(s, &shader.source);
                self.gl.compile_shader(s);
                if !self.gl.get_shader_compile_status(s) {
                    let log = self.gl.get_shader_info_log(s);
                    return Err(gl_plan::compile_error(shader, &log));
                }
                self.gl.attach_shader(program, s);
            }
            for (name, index) in &bindings.attribs {
                self.gl.bind_attrib_location(program, *index, name);
            }
            for (name, color, index) in &bindings.frag_data {
                let name = CString::new(name.as_str()).map_err(|e| e.to_string())?;
                (self.compat.bind_frag_data_location_indexed)(
                    program.0.get(),
                    *color,
                    *index,
                    name.as_ptr(),
                );
            }
            self.check("building the program")?;
            self.gl.link_program(program);
            if !self.gl.get_program_link_status(program) {
                return Ok(Err(self.gl.get_program_info_log(program)));
            }
            self.gl.use_program(Some(program));
            self.program = Some(program);
            let blocks = self
                .gl
                .get_program_parameter_i32(program, glow::ACTIVE_UNIFORM_BLOCKS)
                .max(0) as u32;
            for index in 0..blocks {
                let size = self.gl.get_active_uniform_block_parameter_i32(
                    program,
                    index,
                    glow::UNIFORM_BLOCK_DATA_SIZE,
                );
                let buffer = self.gl.create_buffer()?;
                self.gl.bind_buffer(glow::UNIFORM_BUFFER, Some(buffer));
                self.gl.buffer_data_u8_slice(
                    glow::UNIFORM_BUFFER,
                    &vec![0; size.max(16) as usize],
                    glow::DYNAMIC_DRAW,
                );
                self.gl
                    .bind_buffer_base(glow::UNIFORM_BUFFER, index, Some(buffer));
                self.gl.uniform_block_binding(program, index, index);
                self.block_buffers.push(buffer);
            }
        }
        self.check("setting up uniform blocks")?;
        Ok(Ok(()))
    }

    fn load_vertex_data(&mut self, data: &VertexData) -> Result<(), String> {
        let program = self.program()?;
        let vb = gl_plan::vertex_buffer(data)?;
        let (vao, _) = self.vao_with_buffer(&vb.bytes)?;
        for c in &vb.columns {
            if let Some(array) = gl_plan::legacy_array(&c.name) {
                self.legacy_pointer(array, c.components, c.gl_type, vb.stride, c.offset);
                continue;
            }
            // SAFETY: the context is current; the VAO and buffer are bound.
            unsafe {
                let base = match super::lex::parse_int(&c.name) {
                    Some(location) => u32::try_from(location).ok(),
                    None => self.gl.get_attrib_location(program, &c.name),
                };
                let Some(base) = base else {
                    return Err(format!(
                        "vertex data column {}: not an active attribute of the program",
                        c.name
                    ));
                };
                let location = base + c.array_index + c.matrix_column;
                if c.integer {
                    self.gl.vertex_attrib_pointer_i32(
                        location,
                        c.components,
                        c.gl_type,
                        vb.stride,
                        c.offset,
                    );
                } else {
                    self.gl.vertex_attrib_pointer_f32(
                        location,
                        c.components,
                        c.gl_type,
                        false,
                        vb.stride,
                        c.offset,
                    );
                }
                self.gl.enable_vertex_attrib_array(location);
            }
        }
        // SAFETY: the context is current.
        unsafe { self.gl.bind_vertex_array(None) };
        self.vertex_data = Some(vao);
        self.check("vertex data arrays")
    }

    fn clear(
        &mut self,
        color: Option<[f32; 4]>,
        depth: Option<f64>,
        stencil: Option<i32>,
    ) -> Result<(), String> {
        let mut mask = 0;
        // SAFETY: the context is current.
        unsafe {
            if let Some([r, g, b, a]) = color {
                self.gl.clear_color(r, g, b, a);
                mask |= glow::COLOR_BUFFER_BIT;
            }
            if let Some(d) = depth {
                self.gl.clear_depth(d);
                mask |= glow::DEPTH_BUFFER_BIT;
            }
            if let Some(s) = stencil {
                self.gl.clear_stencil(s);
                mask |= glow::STENCIL_BUFFER_BIT;
            }
            self.gl.clear(mask);
        }
        self.check("glClear")
    }

    fn draw_rect(&mut self, rect: &RectDraw) -> Result<(), String> {
        if rect.patches {
            return Err("`draw rect patch` (tessellation) is not supported by this runner".into());
        }
        let program = self.program()?;
        let (bytes, tex_offset) = gl_plan::rect_bytes(&rect.positions, rect.texcoords.as_ref());
        if let Some((vao, buffer)) = self.rect.take() {
            // SAFETY: the context is current.
            unsafe {
                self.gl.delete_vertex_array(vao);
                self.gl.delete_buffer(buffer);
            }
        }
        let (vao, buffer) = self.vao_with_buffer(&bytes)?;
        self.rect = Some((vao, buffer));
        // SAFETY: the context is current; the VAO and buffer are bound.
        unsafe {
            let vertex = if rect.fixed_function_positions {
                None
            } else {
                self.gl.get_attrib_location(program, "piglit_vertex")
            };
            match vertex {
                Some(location) => {
                    self.gl
                        .vertex_attrib_pointer_f32(location, 4, glow::FLOAT, false, 0, 0);
                    self.gl.enable_vertex_attrib_array(location);
                }
                None => self.legacy_pointer(LegacyArray::Vertex, 4, glow::FLOAT, 0, 0),
            }
            if rect.texcoords.is_some() {
                match self.gl.get_attrib_location(program, "piglit_texcoord") {
                    Some(location) => {
                        self.gl.vertex_attrib_pointer_f32(
                            location,
                            2,
                            glow::FLOAT,
                            false,
                            0,
                            tex_offset,
                        );
                        self.gl.enable_vertex_attrib_array(location);
                    }
                    None => {
                        self.legacy_pointer(LegacyArray::TexCoord(0), 2, glow::FLOAT, 0, tex_offset)
                    }
                }
            }
            if rect.instances == 1 {
                self.gl.draw_arrays(glow::TRIANGLE_STRIP, 0, 4);
            } else {
                let n =
                    i32::try_from(rect.instances).map_err(|_| "too many instances".to_string())?;
                self.gl.draw_arrays_instanced(glow::TRIANGLE_STRIP, 0, 4, n);
            }
            let result = self.check("draw rect");
            self.gl.bind_vertex_array(None);
            result
        }
    }

    fn draw_arrays(
        &mut self,
        mode: GlEnum,
        first: i32,
        count: i32,
        instances: Option<u32>,
    ) -> Result<(), String> {
        // SAFETY: the context is current.
        unsafe {
            self.gl.bind_vertex_array(self.vertex_data);
            match instances {
                None => self.gl.draw_arrays(mode.value, first, count),
                Some(n) => {
                    let n = i32::try_from(n).map_err(|_| "too many instances".to_string())?;
                    self.gl.draw_arrays_instanced(mode.value, first, count, n)
                }
            }
        }
        let result = self.check(&format!("draw arrays {mode}"));
        // SAFETY: the context is current.
        unsafe { self.gl.bind_vertex_array(None) };
        result
    }

    fn uniform(
        &mut self,
        target: &UniformTarget,
        ty: UniformType,
        values: &UniformValues,
    ) -> Result<(), String> {
        let program = self.program()?;
        let (location, name) = match target {
            UniformTarget::Location(l) => (
                Some(glow::NativeUniformLocation(
                    u32::try_from(*l).map_err(|_| format!("uniform location {l} is negative"))?,
                )),
                l.to_string(),
            ),
            // SAFETY: the context is current.
            UniformTarget::Name(name) => (
                unsafe { self.gl.get_uniform_location(program, name) },
                name.clone(),
            ),
        };
        let Some(location) = location else {
            return self.block_uniform(program, &name, ty, values);
        };
        let loc = Some(&location);
        let n = ty.rows;
        let gl = &self.gl;
        // SAFETY: the context is current; the program is in use.
        unsafe {
            match (ty.base, values) {
                (UniformBase::Float, UniformValues::Float(v)) if ty.cols == 1 => match n {
                    1 => gl.uniform_1_f32_slice(loc, v),
                    2 => gl.uniform_2_f32_slice(loc, v),
                    3 => gl.uniform_3_f32_slice(loc, v),
                    _ => gl.uniform_4_f32_slice(loc, v),
                },
                (UniformBase::Float, UniformValues::Float(v)) => match (ty.cols, ty.rows) {
                    (2, 2) => gl.uniform_matrix_2_f32_slice(loc, false, v),
                    (3, 3) => gl.uniform_matrix_3_f32_slice(loc, false, v),
                    (4, 4) => gl.uniform_matrix_4_f32_slice(loc, false, v),
                    (2, 3) => gl.uniform_matrix_2x3_f32_slice(loc, false, v),
                    (2, 4) => gl.uniform_matrix_2x4_f32_slice(loc, false, v),
                    (3, 2) => gl.uniform_matrix_3x2_f32_slice(loc, false, v),
                    (3, 4) => gl.uniform_matrix_3x4_f32_slice(loc, false, v),
                    (4, 2) => gl.uniform_matrix_4x2_f32_slice(loc, false, v),
                    _ => gl.uniform_matrix_4x3_f32_slice(loc, false, v),
                },
                (UniformBase::Int, UniformValues::Int(v)) => {
                    let v: Vec<i32> = v.iter().map(|i| *i as i32).collect();
                    match n {
                        1 => gl.uniform_1_i32_slice(loc, &v),
                        2 => gl.uniform_2_i32_slice(loc, &v),
                        3 => gl.uniform_3_i32_slice(loc, &v),
                        _ => gl.uniform_4_i32_slice(loc, &v),
                    }
                }
                (UniformBase::Uint, UniformValues::Uint(v)) => {
                    let v: Vec<u32> = v.iter().map(|u| *u as u32).collect();
                    match n {
                        1 => gl.uniform_1_u32_slice(loc, &v),
                        2 => gl.uniform_2_u32_slice(loc, &v),
                        3 => gl.uniform_3_u32_slice(loc, &v),
                        _ => gl.uniform_4_u32_slice(loc, &v),
                    }
                }
                _ => {
                    host_words(ty, values)?;
                }
            }
        }
        self.check(&format!("uniform {name}"))
    }

    fn texture(&mut self, unit: u32, image: &TextureImage) -> Result<(), String> {
        let target = gl_plan::texture_target(image.target);
        let internal = gl_plan::internal_format(&image.internal_format)? as i32;
        // SAFETY: the context is current for every call below.
        unsafe {
            self.gl.active_texture(glow::TEXTURE0.saturating_add(unit));
            if let Some(i) = self.textures.iter().position(|(u, _)| *u == unit) {
                let (_, old) = self.textures.remove(i);
                self.gl.delete_texture(old);
            }
            let texture = self.gl.create_texture()?;
            self.textures.push((unit, texture));
            self.gl.bind_texture(target, Some(texture));
            for up in gl_plan::level_uploads(image) {
                let [w, h, d] = up.size;
                let px = glow::PixelUnpackData::Slice(Some(up.bytes.as_slice()));
                match up.dims {
                    1 => self
                        .gl
                        .tex_image_1d(target, up.level, internal, w, 0, up.format, up.ty, px),
                    2 => self
                        .gl
                        .tex_image_2d(target, up.level, internal, w, h, 0, up.format, up.ty, px),
                    _ => self
                        .gl
                        .tex_image_3d(target, up.level, internal, w, h, d, 0, up.format, up.ty, px),
                }
            }
            if image.levels.len() > 1 {
                let max = image.levels.iter().map(|l| l.level).max().unwrap_or(0);
                self.gl
                    .tex_parameter_i32(target, glow::TEXTURE_MAX_LEVEL, max as i32);
            }
        }
        self.check("texture upload")?;
        for (pname, value) in gl_plan::image_params(image) {
            self.set_texture_param(target, pname, value);
        }
        if image.enable_target {
            // SAFETY: the context is current.
            unsafe { self.gl.enable(target) };
        }
        self.check("texture parameters")
    }

    fn tex_parameter(&mut self, target: TextureTarget, param: &TexParam) -> Result<(), String> {
        let (pname, value) = gl_plan::tex_param(param);
        self.set_texture_param(gl_plan::texture_target(target), pname, value);
        self.check("glTexParameter")
    }

    fn state(&mut self, change: &StateChange) -> Result<(), String> {
        let c = &self.compat;
        // SAFETY: the context is current; every pointer argument outlives its call.
        unsafe {
            match change {
                StateChange::Enable(cap) => self.gl.enable(cap.value),
                StateChange::Disable(cap) => self.gl.disable(cap.value),
                StateChange::ClipPlane { index, plane } => (c.clip_plane)(
                    gl_plan::compat::CLIP_PLANE0.saturating_add(*index),
                    plane.as_ptr(),
                ),
                StateChange::Color([r, g, b, a]) => (c.color_4f)(*r, *g, *b, *a),
                StateChange::TexCoord { unit, coords } => {
                    let [s, t, r, q] = *coords;
                    (c.multi_tex_coord_4f)(glow::TEXTURE0.saturating_add(*unit), s, t, r, q)
                }
                StateChange::ShadeModelFlat(flat) => (c.shade_model)(if *flat {
                    gl_plan::compat::FLAT
                } else {
                    gl_plan::compat::SMOOTH
                }),
                StateChange::ProvokingVertexFirst(first) => (c.provoking_vertex)(if *first {
                    glow::FIRST_VERTEX_CONVENTION
                } else {
                    glow::LAST_VERTEX_CONVENTION
                }),
                StateChange::PolygonMode { face, mode } => {
                    self.gl.polygon_mode(face.value, mode.value)
                }
                StateChange::Hint { target, mode } => self.gl.hint(target.value, mode.value),
                StateChange::DepthFunc(func) => self.gl.depth_func(func.value),
                StateChange::Projection { frustum, planes } => {
                    let [l, r, b, t, n, f] = *planes;
                    (c.matrix_mode)(gl_plan::compat::PROJECTION);
                    (c.load_identity)();
                    if *frustum {
                        (c.frustum)(l, r, b, t, n, f);
                    } else {
                        (c.ortho)(l, r, b, t, n, f);
                    }
                    (c.matrix_mode)(gl_plan::compat::MODELVIEW);
                    (c.load_identity)();
                }
            }
        }
        self.check(&gl_plan::state_name(change))
    }

    fn read_color(&mut self, x: i32, y: i32, w: i32, h: i32) -> Result<Vec<[f32; 4]>, String> {
        let n = (w.max(0) as usize) * (h.max(0) as usize);
        let mut bytes = vec![0u8; n * 16];
        // SAFETY: the context is current; the slice holds w*h RGBA floats.
        unsafe {
            self.gl.pixel_store_i32(glow::PACK_ALIGNMENT, 1);
            self.gl.read_pixels(
                x,
                y,
                w,
                h,
                glow::RGBA,
                glow::FLOAT,
                glow::PixelPackData::Slice(Some(&mut bytes)),
            );
        }
        self.check("glReadPixels")?;
        Ok(bytes
            .chunks_exact(16)
            .map(|px| {
                let f = |i: usize| f32::from_le_bytes([px[i], px[i + 1], px[i + 2], px[i + 3]]);
                [f(0), f(4), f(8), f(12)]
            })
            .collect())
    }

    fn read_depth(&mut self, x: i32, y: i32) -> Result<f32, String> {
        let mut bytes = [0u8; 4];
        // SAFETY: the context is current; the slice holds one float.
        unsafe {
            self.gl.read_pixels(
                x,
                y,
                1,
                1,
                glow::DEPTH_COMPONENT,
                glow::FLOAT,
                glow::PixelPackData::Slice(Some(&mut bytes)),
            );
        }
        self.check("glReadPixels(GL_DEPTH_COMPONENT)")?;
        Ok(f32::from_le_bytes(bytes))
    }

    fn active_uniform(&mut self, name: &str, pname: u32) -> Result<i64, String> {
        let program = self.program()?;
        let index = self
            .uniform_index(program, name)
            .ok_or_else(|| format!("{name} is not an active uniform"))?;
        // SAFETY: the context is current.
        let v = unsafe {
            self.gl
                .get_active_uniforms_parameter(program, &[index], pname)
        };
        self.check("glGetActiveUniformsiv")?;
        v.first()
            .map(|v| i64::from(*v))
            .ok_or_else(|| "glGetActiveUniformsiv returned nothing".to_string())
    }

    fn program_query(&mut self, pname: u32) -> Result<i64, String> {
        let program = self.program()?;
        // SAFETY: the context is current.
        let v = unsafe { self.gl.get_program_parameter_i32(program, pname) };
        self.check("glGetProgramiv")?;
        Ok(i64::from(v))
    }
}
