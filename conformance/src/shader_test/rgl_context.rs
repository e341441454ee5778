//! [`RglContext`]: the full runner's [`GlContext`] over rgl's state tracker
//! (`rgl_state::Context` on the software driver). Every method is a few
//! glow-shaped calls; a pending GL error after them (and, for draws, the
//! context's `last_draw_error` text) becomes the `Err` the executor reports on
//! the command's line.
//!
//! Where the state tracker's API has no entry point for a query piglit makes
//! (`glGetProgramiv(GL_ACTIVE_UNIFORMS)`, `glGetUniformIndices`, the number of
//! uniform blocks), the adapter derives it from the indexed queries it does
//! have (`get_active_uniform`, `get_active_uniform_block_parameter_i32`),
//! stopping at the first index they reject.

use rgl_backend::SoftDriver;
use rgl_state::{Buffer, Context, Program, Texture, UniformLocation, VertexArray};

use super::command::UniformValues;
use super::command::{TexParam, TextureTarget, UniformBase, UniformTarget, UniformType};
use super::exec::{GlContext, RectDraw, StateChange};
use super::gl_enum::GlEnum;
use super::gl_plan::{self, LegacyArray, ParamValue};
use super::link_only::ProgramShader;
use super::support::Capabilities;
use super::textures::TextureImage;
use super::vertex_data::VertexData;

/// Largest framebuffer side rgl's default framebuffer takes.
const MAX_SIZE: u32 = rgl_state::limits::MAX_RENDERBUFFER_SIZE;

/// rgl's state tracker as a runner context.
pub struct RglContext {
    gl: Context,
    program: Option<Program>,
    /// Uniform block buffers by block index (binding = index).
    block_buffers: Vec<Buffer>,
    /// The `[vertex data]` VAO and buffer.
    vertex_data: Option<(VertexArray, Buffer)>,
    /// VAO and buffer of `draw rect`.
    rect: Option<(VertexArray, Buffer)>,
    /// Textures created by `texture` commands (deleted when replaced).
    textures: Vec<(u32, Texture)>,
}

/// Worker threads of the software driver in a runner context: `RGL_THREADS`,
/// else 1 (the runner already runs several files at once).
fn driver_threads() -> usize {
    std::env::var("RGL_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(1)
}

impl Default for RglContext {
    fn default() -> Self {
        RglContext::new()
    }
}

impl RglContext {
    /// A context on the software driver with a 250x250 default framebuffer.
    pub fn new() -> RglContext {
        RglContext {
            gl: Context::with_driver(Box::new(SoftDriver::new(driver_threads())), 250, 250),
            program: None,
            block_buffers: Vec::new(),
            vertex_data: None,
            rect: None,
            textures: Vec::new(),
        }
    }

    /// The pending GL error as an `Err`, with `what` naming the call.
    fn check(&mut self, what: &str) -> Result<(), String> {
        match self.gl.get_error() {
            0 => Ok(()),
            code => Err(format!("{what}: {}", gl_plan::error_name(code))),
        }
    }

    /// Like [`Self::check`] for a draw: adds the context's reason.
    fn check_draw(&mut self, what: &str) -> Result<(), String> {
        let code = self.gl.get_error();
        let why = self.gl.last_draw_error();
        match (code, why) {
            (0, None) => Ok(()),
            (0, Some(why)) => Err(format!("{what}: {why}")),
            (code, None) => Err(format!("{what}: {}", gl_plan::error_name(code))),
            (code, Some(why)) => Err(format!("{what}: {}: {why}", gl_plan::error_name(code))),
        }
    }

    fn program(&self) -> Result<Program, String> {
        self.program
            .ok_or_else(|| "no program is in use".to_string())
    }

    /// Every active uniform's name, by index (`glGetActiveUniform` until the
    /// first index the context rejects).
    fn active_uniform_names(&mut self, program: Program) -> Vec<String> {
        let mut names = Vec::new();
        while let Some(info) = self.gl.get_active_uniform(program, names.len() as u32) {
            names.push(info.name);
        }
        // The index past the end recorded GL_INVALID_VALUE.
        let _ = self.gl.get_error();
        names
    }

    /// Number of active uniform blocks.
    fn active_block_count(&mut self, program: Program) -> u32 {
        let n = self
            .gl
            .get_program_parameter_i32(program, glow::ACTIVE_UNIFORM_BLOCKS);
        n.max(0) as u32
    }

    /// `glGetUniformIndices` of one name.
    fn uniform_index(&mut self, program: Program, name: &str) -> Option<u32> {
        self.active_uniform_names(program)
            .iter()
            .position(|n| gl_plan::same_uniform(n, name))
            .map(|i| i as u32)
    }

    fn block_uniform(
        &mut self,
        program: Program,
        name: &str,
        ty: UniformType,
        values: &UniformValues,
    ) -> Result<(), String> {
        let (base, element) = gl_plan::split_element(name);
        let index = self
            .uniform_index(program, name)
            .or_else(|| self.uniform_index(program, base))
            .ok_or_else(|| format!("uniform {name}: not an active uniform"))?;
        let param =
            |gl: &mut Context, pname| gl.get_active_uniform_parameter_i32(program, index, pname);
        let block = param(&mut self.gl, glow::UNIFORM_BLOCK_INDEX);
        let offset = param(&mut self.gl, glow::UNIFORM_OFFSET);
        let array_stride = param(&mut self.gl, glow::UNIFORM_ARRAY_STRIDE);
        let matrix_stride = param(&mut self.gl, glow::UNIFORM_MATRIX_STRIDE);
        let row_major = param(&mut self.gl, glow::UNIFORM_IS_ROW_MAJOR) != 0;
        self.check("glGetActiveUniformsiv")?;
        let Some(&buffer) = usize::try_from(block)
            .ok()
            .and_then(|b| self.block_buffers.get(b))
        else {
            return Err(format!(
                "uniform {name}: no location and not in a uniform block"
            ));
        };
        let element_offset = if gl_plan::split_element(name).0 != name {
            i64::from(element) * i64::from(array_stride)
        } else {
            0
        };
        let words = uniform_words(ty, values)?;
        let mut writes: Vec<(i64, Vec<u8>)> = Vec::new();
        if ty.cols > 1 {
            // Matrix: column c, row r at c*stride + r*4 (row-major: swapped).
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
        self.gl.bind_buffer(glow::UNIFORM_BUFFER, Some(buffer));
        for (at, bytes) in writes {
            let at = i64::from(offset) + element_offset + at;
            let at = i32::try_from(at)
                .map_err(|_| format!("uniform {name}: offset {at} out of range"))?;
            self.gl
                .buffer_sub_data_u8_slice(glow::UNIFORM_BUFFER, at, &bytes);
        }
        self.check(&format!("uniform {name} (block buffer write)"))
    }

    fn set_texture_param(&mut self, target: u32, pname: u32, value: ParamValue) {
        match value {
            ParamValue::Int(v) => self.gl.tex_parameter_i32(target, pname, v),
            ParamValue::Float(v) => self.gl.tex_parameter_f32(target, pname, v),
            ParamValue::Floats(v) => self.gl.tex_parameter_f32_slice(target, pname, &v),
        }
    }

    fn vao_with_buffer(&mut self, bytes: &[u8]) -> Result<(VertexArray, Buffer), String> {
        let vao = self.gl.create_vertex_array()?;
        let buffer = self.gl.create_buffer()?;
        self.gl.bind_vertex_array(Some(vao));
        self.gl.bind_buffer(glow::ARRAY_BUFFER, Some(buffer));
        self.gl
            .buffer_data_u8_slice(glow::ARRAY_BUFFER, bytes, glow::STATIC_DRAW);
        Ok((vao, buffer))
    }

    fn legacy_pointer(&mut self, array: LegacyArray, size: i32, ty: u32, stride: i32, offset: i32) {
        let (client_state, unit) = match array {
            LegacyArray::Vertex => {
                self.gl.vertex_pointer(size, ty, stride, offset);
                (gl_plan::compat::VERTEX_ARRAY, None)
            }
            LegacyArray::Normal => {
                self.gl.normal_pointer(ty, stride, offset);
                (gl_plan::compat::NORMAL_ARRAY, None)
            }
            LegacyArray::Color => {
                self.gl.color_pointer(size, ty, stride, offset);
                (gl_plan::compat::COLOR_ARRAY, None)
            }
            LegacyArray::TexCoord(unit) => {
                self.gl
                    .client_active_texture(glow::TEXTURE0.saturating_add(unit));
                self.gl.tex_coord_pointer(size, ty, stride, offset);
                (gl_plan::compat::TEXTURE_COORD_ARRAY, Some(unit))
            }
        };
        self.gl.enable_client_state(client_state);
        if unit.is_some() {
            self.gl.client_active_texture(glow::TEXTURE0);
        }
    }
}

/// The 32-bit words of a uniform command's values, or why they cannot be set.
fn uniform_words(ty: UniformType, values: &UniformValues) -> Result<Vec<u32>, String> {
    match (ty.base, values) {
        (UniformBase::Float, UniformValues::Float(v)) => {
            Ok(v.iter().map(|f| f.to_bits()).collect())
        }
        (UniformBase::Int, UniformValues::Int(v)) => {
            Ok(v.iter().map(|i| *i as i32 as u32).collect())
        }
        (UniformBase::Uint, UniformValues::Uint(v)) => Ok(v.iter().map(|u| *u as u32).collect()),
        (base, _) => Err(format!(
            "{} uniforms are not supported by rgl",
            match base {
                UniformBase::Double => "double",
                UniformBase::Int64 => "int64_t",
                UniformBase::Uint64 => "uint64_t",
                UniformBase::Handle => "bindless handle",
                _ => "mismatched",
            }
        )),
    }
}

impl GlContext for RglContext {
    fn capabilities(&self) -> Capabilities {
        Capabilities::rgl_link_only()
    }

    fn describe(&self) -> String {
        format!("rgl software rasterizer, {} thread(s)", driver_threads())
    }

    fn create_framebuffer(&mut self, width: u32, height: u32, depth: bool) -> Result<(), String> {
        if width == 0 || height == 0 || width > MAX_SIZE || height > MAX_SIZE {
            return Err(format!(
                "{width}x{height} is outside rgl's framebuffer sizes (1..={MAX_SIZE})"
            ));
        }
        let (w, h) = (width as i32, height as i32);
        // As piglit's `-fbo`: an RGBA8 colour buffer, depth/stencil on request.
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
        self.check("framebuffer objects")?;
        let status = self.gl.check_framebuffer_status(glow::FRAMEBUFFER);
        if status != glow::FRAMEBUFFER_COMPLETE {
            return Err(format!("framebuffer incomplete (0x{status:04x})"));
        }
        self.gl.viewport(0, 0, w, h);
        self.check("framebuffer")
    }

    fn build_program(
        &mut self,
        shaders: &[ProgramShader],
        bindings: &rgl_link::Bindings,
    ) -> Result<Result<(), String>, String> {
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
            self.gl
                .bind_frag_data_location_indexed(program, *color, *index, name);
        }
        self.check("building the program")?;
        self.gl.link_program(program);
        if !self.gl.get_program_link_status(program) {
            return Ok(Err(self.gl.get_program_info_log(program)));
        }
        self.gl.use_program(Some(program));
        self.program = Some(program);
        for index in 0..self.active_block_count(program) {
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
        self.check("setting up uniform blocks")?;
        Ok(Ok(()))
    }

    fn load_vertex_data(&mut self, data: &VertexData) -> Result<(), String> {
        let program = self.program()?;
        let vb = gl_plan::vertex_buffer(data)?;
        let (vao, buffer) = self.vao_with_buffer(&vb.bytes)?;
        for c in &vb.columns {
            if let Some(array) = gl_plan::legacy_array(&c.name) {
                self.legacy_pointer(array, c.components, c.gl_type, vb.stride, c.offset);
                continue;
            }
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
        self.gl.bind_vertex_array(None);
        self.vertex_data = Some((vao, buffer));
        self.check("vertex data arrays")
    }

    fn clear(
        &mut self,
        color: Option<[f32; 4]>,
        depth: Option<f64>,
        stencil: Option<i32>,
    ) -> Result<(), String> {
        let mut mask = 0;
        if let Some([r, g, b, a]) = color {
            self.gl.clear_color(r, g, b, a);
            mask |= glow::COLOR_BUFFER_BIT;
        }
        if let Some(d) = depth {
            self.gl.clear_depth_f64(d);
            mask |= glow::DEPTH_BUFFER_BIT;
        }
        if let Some(s) = stencil {
            self.gl.clear_stencil(s);
            mask |= glow::STENCIL_BUFFER_BIT;
        }
        self.gl.clear(mask);
        self.check("glClear")
    }

    fn draw_rect(&mut self, rect: &RectDraw) -> Result<(), String> {
        if rect.patches {
            return Err("GL_PATCHES (tessellation) is not supported by rgl".into());
        }
        let program = self.program()?;
        let (bytes, tex_offset) = gl_plan::rect_bytes(&rect.positions, rect.texcoords.as_ref());
        if let Some((vao, buffer)) = self.rect.take() {
            self.gl.delete_vertex_array(vao);
            self.gl.delete_buffer(buffer);
        }
        let (vao, buffer) = self.vao_with_buffer(&bytes)?;
        self.rect = Some((vao, buffer));
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
        self.check("draw rect arrays")?;
        if rect.instances == 1 {
            self.gl.draw_arrays(glow::TRIANGLE_STRIP, 0, 4);
        } else {
            let n = i32::try_from(rect.instances).map_err(|_| "too many instances".to_string())?;
            self.gl.draw_arrays_instanced(glow::TRIANGLE_STRIP, 0, 4, n);
        }
        let result = self.check_draw("draw rect");
        self.gl.bind_vertex_array(None);
        result
    }

    fn draw_arrays(
        &mut self,
        mode: GlEnum,
        first: i32,
        count: i32,
        instances: Option<u32>,
    ) -> Result<(), String> {
        if mode.value == glow::PATCHES {
            return Err("GL_PATCHES (tessellation) is not supported by rgl".into());
        }
        let vao = self.vertex_data.map(|(vao, _)| vao);
        self.gl.bind_vertex_array(vao);
        match instances {
            None => self.gl.draw_arrays(mode.value, first, count),
            Some(n) => {
                let n = i32::try_from(n).map_err(|_| "too many instances".to_string())?;
                self.gl.draw_arrays_instanced(mode.value, first, count, n)
            }
        }
        let result = self.check_draw(&format!("draw arrays {mode}"));
        self.gl.bind_vertex_array(None);
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
                Some(UniformLocation(
                    u32::try_from(*l).map_err(|_| format!("uniform location {l} is negative"))?,
                )),
                l.to_string(),
            ),
            UniformTarget::Name(name) => {
                (self.gl.get_uniform_location(program, name), name.clone())
            }
        };
        self.check(&format!("glGetUniformLocation({name})"))?;
        let Some(location) = location else {
            return self.block_uniform(program, &name, ty, values);
        };
        let loc = Some(&location);
        let n = ty.rows;
        match (ty.base, values) {
            (UniformBase::Float, UniformValues::Float(v)) if ty.cols == 1 => match n {
                1 => self.gl.uniform_1_f32_slice(loc, v),
                2 => self.gl.uniform_2_f32_slice(loc, v),
                3 => self.gl.uniform_3_f32_slice(loc, v),
                _ => self.gl.uniform_4_f32_slice(loc, v),
            },
            (UniformBase::Float, UniformValues::Float(v)) => match (ty.cols, ty.rows) {
                (2, 2) => self.gl.uniform_matrix_2_f32_slice(loc, false, v),
                (3, 3) => self.gl.uniform_matrix_3_f32_slice(loc, false, v),
                (4, 4) => self.gl.uniform_matrix_4_f32_slice(loc, false, v),
                (2, 3) => self.gl.uniform_matrix_2x3_f32_slice(loc, false, v),
                (2, 4) => self.gl.uniform_matrix_2x4_f32_slice(loc, false, v),
                (3, 2) => self.gl.uniform_matrix_3x2_f32_slice(loc, false, v),
                (3, 4) => self.gl.uniform_matrix_3x4_f32_slice(loc, false, v),
                (4, 2) => self.gl.uniform_matrix_4x2_f32_slice(loc, false, v),
                _ => self.gl.uniform_matrix_4x3_f32_slice(loc, false, v),
            },
            (UniformBase::Int, UniformValues::Int(v)) => {
                let v: Vec<i32> = v.iter().map(|i| *i as i32).collect();
                match n {
                    1 => self.gl.uniform_1_i32_slice(loc, &v),
                    2 => self.gl.uniform_2_i32_slice(loc, &v),
                    3 => self.gl.uniform_3_i32_slice(loc, &v),
                    _ => self.gl.uniform_4_i32_slice(loc, &v),
                }
            }
            (UniformBase::Uint, UniformValues::Uint(v)) => {
                let v: Vec<u32> = v.iter().map(|u| *u as u32).collect();
                match n {
                    1 => self.gl.uniform_1_u32_slice(loc, &v),
                    2 => self.gl.uniform_2_u32_slice(loc, &v),
                    3 => self.gl.uniform_3_u32_slice(loc, &v),
                    _ => self.gl.uniform_4_u32_slice(loc, &v),
                }
            }
            _ => {
                uniform_words(ty, values)?;
            }
        }
        self.check(&format!("uniform {name}"))
    }

    fn texture(&mut self, unit: u32, image: &TextureImage) -> Result<(), String> {
        let target = gl_plan::texture_target(image.target);
        let internal = gl_plan::internal_format(&image.internal_format)? as i32;
        self.gl.active_texture(glow::TEXTURE0.saturating_add(unit));
        self.check(&format!("glActiveTexture(GL_TEXTURE{unit})"))?;
        if let Some(i) = self.textures.iter().position(|(u, _)| *u == unit) {
            let (_, old) = self.textures.remove(i);
            self.gl.delete_texture(old);
        }
        let texture = self.gl.create_texture()?;
        self.textures.push((unit, texture));
        self.gl.bind_texture(target, Some(texture));
        for up in gl_plan::level_uploads(image) {
            let [w, h, d] = up.size;
            let px = Some(up.bytes.as_slice());
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
        self.check("texture upload")?;
        if image.levels.len() > 1 {
            let max = image.levels.iter().map(|l| l.level).max().unwrap_or(0);
            self.gl
                .tex_parameter_i32(target, glow::TEXTURE_MAX_LEVEL, max as i32);
        }
        for (pname, value) in gl_plan::image_params(image) {
            self.set_texture_param(target, pname, value);
        }
        if image.enable_target {
            self.gl.enable(target);
        }
        self.check("texture parameters")
    }

    fn tex_parameter(&mut self, target: TextureTarget, param: &TexParam) -> Result<(), String> {
        let (pname, value) = gl_plan::tex_param(param);
        self.set_texture_param(gl_plan::texture_target(target), pname, value);
        self.check("glTexParameter")
    }

    fn state(&mut self, change: &StateChange) -> Result<(), String> {
        match change {
            StateChange::Enable(cap) => self.gl.enable(cap.value),
            StateChange::Disable(cap) => self.gl.disable(cap.value),
            StateChange::ClipPlane { index, plane } => self
                .gl
                .clip_plane(gl_plan::compat::CLIP_PLANE0.saturating_add(*index), *plane),
            StateChange::Color([r, g, b, a]) => self.gl.color_4_f32(*r, *g, *b, *a),
            StateChange::TexCoord { unit, coords } => {
                let [s, t, r, q] = *coords;
                self.gl
                    .multi_tex_coord_4_f32(glow::TEXTURE0.saturating_add(*unit), s, t, r, q)
            }
            StateChange::ShadeModelFlat(flat) => self.gl.shade_model(if *flat {
                gl_plan::compat::FLAT
            } else {
                gl_plan::compat::SMOOTH
            }),
            StateChange::ProvokingVertexFirst(first) => self.gl.provoking_vertex(if *first {
                glow::FIRST_VERTEX_CONVENTION
            } else {
                glow::LAST_VERTEX_CONVENTION
            }),
            StateChange::PolygonMode { face, mode } => self.gl.polygon_mode(face.value, mode.value),
            // glHint: recorded (and queryable); rgl has no implementation-
            // dependent choices for it to steer.
            StateChange::Hint { target, mode } => self.gl.hint(target.value, mode.value),
            StateChange::DepthFunc(func) => self.gl.depth_func(func.value),
            StateChange::Projection { frustum, planes } => {
                let [l, r, b, t, n, f] = *planes;
                self.gl.matrix_mode(gl_plan::compat::PROJECTION);
                self.gl.load_identity();
                if *frustum {
                    self.gl.frustum(l, r, b, t, n, f);
                } else {
                    self.gl.ortho(l, r, b, t, n, f);
                }
                self.gl.matrix_mode(gl_plan::compat::MODELVIEW);
                self.gl.load_identity();
            }
        }
        self.check(&gl_plan::state_name(change))
    }

    fn read_color(&mut self, x: i32, y: i32, w: i32, h: i32) -> Result<Vec<[f32; 4]>, String> {
        let n = (w.max(0) as usize) * (h.max(0) as usize);
        let mut bytes = vec![0u8; n * 16];
        self.gl
            .read_pixels(x, y, w, h, glow::RGBA, glow::FLOAT, &mut bytes);
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
        self.gl
            .read_pixels(x, y, 1, 1, glow::DEPTH_COMPONENT, glow::FLOAT, &mut bytes);
        self.check("glReadPixels(GL_DEPTH_COMPONENT)")?;
        Ok(f32::from_le_bytes(bytes))
    }

    fn active_uniform(&mut self, name: &str, pname: u32) -> Result<i64, String> {
        let program = self.program()?;
        let index = self
            .uniform_index(program, name)
            .ok_or_else(|| format!("{name} is not an active uniform"))?;
        let v = self
            .gl
            .get_active_uniform_parameter_i32(program, index, pname);
        self.check("glGetActiveUniformsiv")?;
        Ok(i64::from(v))
    }

    fn program_query(&mut self, pname: u32) -> Result<i64, String> {
        let program = self.program()?;
        let v = self.gl.get_program_parameter_i32(program, pname);
        self.check("glGetProgramiv")?;
        Ok(i64::from(v))
    }
}
