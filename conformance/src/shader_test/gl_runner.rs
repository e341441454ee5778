//! [`GlRunner`]: the one implementation of the executor's [`GlContext`] over
//! any [`GlApi`] (rgl's state tracker or the host's GL). Every method is a few
//! glow-shaped calls; a pending GL error after them (and, for draws, the
//! context's own account of a draw that did nothing) becomes the `Err` the
//! executor reports on the command's line. What the GL calls carry (vertex
//! buffers, rectangles, texture uploads, parameters) is planned by
//! [`super::gl_plan`].

use super::command::{
    TexParam, TextureTarget, UniformBase, UniformTarget, UniformType, UniformValues,
};
use super::exec::{GlContext, RectDraw, StateChange};
use super::gl_api::GlApi;
use super::gl_enum::GlEnum;
use super::gl_plan::{self, LegacyArray, ParamValue};
use super::includes::ShaderIncludes;
use super::link_only::{NotRunnable, ProgramShader};
use super::support::Capabilities;
use super::textures::TextureImage;
use super::vertex_data::VertexData;

/// A runner context over the GL entry points of `G`.
pub struct GlRunner<G: GlApi> {
    pub(super) gl: G,
    program: Option<G::Program>,
    /// Uniform block buffers by block index (binding = index).
    block_buffers: Vec<G::Buffer>,
    /// `ubo array index`: added to a block uniform's block index.
    ubo_array_index: u32,
    /// The `[vertex data]` VAO and buffer.
    vertex_data: Option<(G::VertexArray, G::Buffer)>,
    /// VAO and buffer of `draw rect`.
    rect: Option<(G::VertexArray, G::Buffer)>,
    /// Textures created by `texture` commands (deleted when replaced).
    textures: Vec<(u32, G::Texture)>,
    /// Level-0 width and height of the texture on each unit.
    texture_sizes: Vec<(u32, (u32, u32))>,
    /// The framebuffer of the last `fb tex 2d`.
    fb_tex: Option<G::Framebuffer>,
    /// Buffers of `ssbo` and `atomic counters` commands by (target, binding).
    storage: Vec<((u32, u32), G::Buffer)>,
    /// Search paths of `[shader include paths]`: shaders are compiled with
    /// `glCompileShaderIncludeARB` when there are some.
    include_paths: Vec<String>,
    /// `subuniform` selections by stage: the index for every subroutine
    /// uniform location of the stage, as last sent.
    subroutines: Vec<(u32, Vec<u32>)>,
}

impl<G: GlApi> GlRunner<G> {
    /// The GL calls under the runner, for callers that drive the context
    /// themselves (the glslparser host peer).
    pub fn api_mut(&mut self) -> &mut G {
        &mut self.gl
    }

    /// A runner over `gl`, with no program, buffers or textures yet.
    pub fn with_api(gl: G) -> GlRunner<G> {
        GlRunner {
            gl,
            program: None,
            block_buffers: Vec::new(),
            ubo_array_index: 0,
            vertex_data: None,
            rect: None,
            textures: Vec::new(),
            texture_sizes: Vec::new(),
            fb_tex: None,
            storage: Vec::new(),
            include_paths: Vec::new(),
            subroutines: Vec::new(),
        }
    }

    /// The runner's buffer at binding `index` of `target`, bound to `target`.
    fn bind_storage(&mut self, target: u32, index: u32) -> Result<(), String> {
        let buffer = self
            .storage
            .iter()
            .find(|(key, _)| *key == (target, index))
            .map(|(_, b)| *b)
            .ok_or_else(|| format!("no buffer was created for binding {index}"))?;
        self.gl.bind_buffer(target, Some(buffer));
        Ok(())
    }

    /// The pending GL error as an `Err`, with `what` naming the call.
    fn check(&mut self, what: &str) -> Result<(), String> {
        match self.gl.get_error() {
            0 => Ok(()),
            code => Err(format!("{what}: {}", gl_plan::error_name(code))),
        }
    }

    /// [`Self::check`] where [`GlApi::EAGER_CHECKS`] asks for it.
    fn eager_check(&mut self, what: &str) -> Result<(), String> {
        if G::EAGER_CHECKS {
            self.check(what)
        } else {
            Ok(())
        }
    }

    /// Like [`Self::check`] for a draw: adds the context's reason, if any.
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

    fn program(&self) -> Result<G::Program, String> {
        self.program
            .ok_or_else(|| "no program is in use".to_string())
    }

    /// The 32-bit words of a uniform command's values, or why they cannot be
    /// set.
    fn uniform_words(&self, ty: UniformType, values: &UniformValues) -> Result<Vec<u32>, String> {
        match (ty.base, values) {
            (UniformBase::Float, UniformValues::Float(v)) => {
                Ok(v.iter().map(|f| f.to_bits()).collect())
            }
            (UniformBase::Int, UniformValues::Int(v)) => {
                Ok(v.iter().map(|i| *i as i32 as u32).collect())
            }
            (UniformBase::Uint, UniformValues::Uint(v)) => {
                Ok(v.iter().map(|u| *u as u32).collect())
            }
            (base, _) => Err(self.gl.unsupported_uniform(base)),
        }
    }

    /// Writes a uniform without a location into its block's buffer.
    fn block_uniform(
        &mut self,
        program: G::Program,
        name: &str,
        ty: UniformType,
        values: &UniformValues,
    ) -> Result<(), String> {
        let (base, element) = gl_plan::split_element(name);
        let index = self
            .gl
            .uniform_index(program, name)
            .or_else(|| self.gl.uniform_index(program, base))
            .ok_or_else(|| format!("uniform {name}: not an active uniform"))?;
        let param = |gl: &mut G, pname| {
            gl.get_active_uniform_parameter_i32(program, index, pname)
                .unwrap_or(-1)
        };
        let block = param(&mut self.gl, glow::UNIFORM_BLOCK_INDEX);
        let offset = param(&mut self.gl, glow::UNIFORM_OFFSET);
        let array_stride = param(&mut self.gl, glow::UNIFORM_ARRAY_STRIDE);
        let matrix_stride = param(&mut self.gl, glow::UNIFORM_MATRIX_STRIDE);
        let row_major = param(&mut self.gl, glow::UNIFORM_IS_ROW_MAJOR) != 0;
        self.eager_check("glGetActiveUniformsiv")?;
        // An array of blocks lists its members once, in its first block
        // (GL 4.3 §7.3.1.1); `ubo array index` picks the element.
        let Some(&buffer) = usize::try_from(block)
            .ok()
            .and_then(|b| b.checked_add(self.ubo_array_index as usize))
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
        let words = self.uniform_words(ty, values)?;
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

    /// Creates a VAO and an array buffer holding `bytes`, both left bound.
    fn vao_with_buffer(&mut self, bytes: &[u8]) -> Result<(G::VertexArray, G::Buffer), String> {
        let vao = self.gl.create_vertex_array()?;
        let buffer = self.gl.create_buffer()?;
        self.gl.bind_vertex_array(Some(vao));
        self.gl.bind_buffer(glow::ARRAY_BUFFER, Some(buffer));
        self.gl
            .buffer_data_u8_slice(glow::ARRAY_BUFFER, bytes, glow::STATIC_DRAW);
        Ok((vao, buffer))
    }

    /// Points a fixed-function array at the bound array buffer and enables it.
    fn legacy_pointer(&mut self, array: LegacyArray, size: i32, ty: u32, stride: i32, offset: i32) {
        match array {
            LegacyArray::Vertex => {
                self.gl.vertex_pointer(size, ty, stride, offset);
                self.gl.enable_client_state(gl_plan::compat::VERTEX_ARRAY);
            }
            LegacyArray::Normal => {
                self.gl.normal_pointer(ty, stride, offset);
                self.gl.enable_client_state(gl_plan::compat::NORMAL_ARRAY);
            }
            LegacyArray::Color => {
                self.gl.color_pointer(size, ty, stride, offset);
                self.gl.enable_client_state(gl_plan::compat::COLOR_ARRAY);
            }
            LegacyArray::TexCoord(unit) => {
                self.gl
                    .client_active_texture(glow::TEXTURE0.saturating_add(unit));
                self.gl.tex_coord_pointer(size, ty, stride, offset);
                self.gl
                    .enable_client_state(gl_plan::compat::TEXTURE_COORD_ARRAY);
                self.gl.client_active_texture(glow::TEXTURE0);
            }
        }
    }

    /// Points the float attribute `location` at the bound array buffer.
    fn float_attribute(&mut self, location: u32, size: i32, stride: i32, offset: i32) {
        self.gl
            .vertex_attrib_pointer_f32(location, size, glow::FLOAT, false, stride, offset);
        self.gl.enable_vertex_attrib_array(location);
    }

    /// Sets a uniform that has a location.
    fn uniform_at(
        &mut self,
        location: &G::UniformLocation,
        ty: UniformType,
        values: &UniformValues,
    ) -> Result<(), String> {
        let loc = Some(location);
        let n = ty.rows;
        let gl = &mut self.gl;
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
                self.uniform_words(ty, values)?;
            }
        }
        Ok(())
    }
}

impl<G: GlApi> GlContext for GlRunner<G> {
    fn capabilities(&self) -> Capabilities {
        self.gl.capabilities()
    }

    fn shader_includes(&mut self, includes: &ShaderIncludes) -> Result<(), NotRunnable> {
        for (name, string) in &includes.strings {
            self.gl
                .named_string(name, string)
                .map_err(NotRunnable::Skip)?;
            // shader_runner fails the test on an error of glNamedStringARB.
            let e = self.gl.get_error();
            if e != glow::NO_ERROR {
                return Err(NotRunnable::Error(format!(
                    "glNamedStringARB({name:?}) raised GL error 0x{e:04x}"
                )));
            }
        }
        self.include_paths = includes.paths.clone();
        Ok(())
    }

    fn describe(&self) -> String {
        self.gl.describe()
    }

    fn create_framebuffer(&mut self, width: u32, height: u32, depth: bool) -> Result<(), String> {
        let (w, h) = self.gl.framebuffer_size(width, height)?;
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
        self.eager_check("framebuffer objects")?;
        let status = self.gl.check_framebuffer_status(glow::FRAMEBUFFER);
        if status != glow::FRAMEBUFFER_COMPLETE {
            return Err(format!("framebuffer incomplete (0x{status:04x})"));
        }
        if G::EXPLICIT_PIXEL_STATE {
            self.gl.draw_buffer(glow::COLOR_ATTACHMENT0);
            self.gl.read_buffer(glow::COLOR_ATTACHMENT0);
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
            if self.include_paths.is_empty() {
                self.gl.compile_shader(s);
            } else {
                let paths: Vec<&str> = self.include_paths.iter().map(String::as_str).collect();
                self.gl.compile_shader_include(s, &paths)?;
            }
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
                .bind_frag_data_location_indexed(program, *color, *index, name)?;
        }
        self.check("building the program")?;
        self.gl.link_program(program);
        if !self.gl.get_program_link_status(program) {
            return Ok(Err(self.gl.get_program_info_log(program)));
        }
        self.gl.use_program(Some(program));
        self.program = Some(program);
        // A new program starts from its default subroutine selections.
        self.subroutines.clear();
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
            self.gl.clear_depth(d);
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
            return Err(G::RECT_PATCHES_UNSUPPORTED.into());
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
            Some(location) => self.float_attribute(location, 4, 0, 0),
            None => self.legacy_pointer(LegacyArray::Vertex, 4, glow::FLOAT, 0, 0),
        }
        if rect.texcoords.is_some() {
            match self.gl.get_attrib_location(program, "piglit_texcoord") {
                Some(location) => self.float_attribute(location, 2, 0, tex_offset),
                None => {
                    self.legacy_pointer(LegacyArray::TexCoord(0), 2, glow::FLOAT, 0, tex_offset)
                }
            }
        }
        self.eager_check("draw rect arrays")?;
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
        if let Some(why) = G::ARRAY_PATCHES_UNSUPPORTED {
            if mode.value == glow::PATCHES {
                return Err(why.into());
            }
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
                Some(self.gl.uniform_location(
                    u32::try_from(*l).map_err(|_| format!("uniform location {l} is negative"))?,
                )),
                l.to_string(),
            ),
            UniformTarget::Name(name) => {
                (self.gl.get_uniform_location(program, name), name.clone())
            }
        };
        self.eager_check(&format!("glGetUniformLocation({name})"))?;
        let Some(location) = location else {
            return self.block_uniform(program, &name, ty, values);
        };
        self.uniform_at(&location, ty, values)?;
        self.check(&format!("uniform {name}"))
    }

    fn subroutine_uniform(&mut self, stage: u32, name: &str, function: &str) -> Result<(), String> {
        /// `GL_ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS`.
        const LOCATIONS: u32 = 0x8E47;
        let program = self.program()?;
        let location = self
            .gl
            .get_subroutine_uniform_location(program, stage, name);
        let index = self.gl.get_subroutine_index(program, stage, function);
        let count = self
            .gl
            .get_program_stage_iv(program, stage, LOCATIONS)
            .max(0) as usize;
        self.check(&format!("subuniform {name} {function}"))?;
        let location = usize::try_from(location)
            .map_err(|_| format!("subuniform: no subroutine uniform {name}"))?;
        if index == glow::INVALID_INDEX {
            return Err(format!("subuniform: no subroutine {function}"));
        }
        if location >= count {
            return Err(format!(
                "subuniform: location {location} of {name} is not below the stage's {count} locations"
            ));
        }
        let slot = match self.subroutines.iter().position(|(s, _)| *s == stage) {
            Some(i) => i,
            None => {
                self.subroutines.push((stage, Vec::new()));
                self.subroutines.len() - 1
            }
        };
        let values = &mut self.subroutines[slot].1;
        values.resize(count, 0);
        values[location] = index;
        let values = values.clone();
        self.gl.uniform_subroutines_uiv(stage, &values);
        self.check(&format!("subuniform {name} {function}"))
    }

    fn ubo_array_index(&mut self, index: u32) -> Result<(), String> {
        self.ubo_array_index = index;
        Ok(())
    }

    fn has_uniform(&mut self, name: &str) -> Result<bool, String> {
        let program = self.program()?;
        if self.gl.get_uniform_location(program, name).is_some() {
            return Ok(true);
        }
        let (base, _) = gl_plan::split_element(name);
        let index = self
            .gl
            .uniform_index(program, name)
            .or_else(|| self.gl.uniform_index(program, base));
        let block = index.and_then(|i| {
            self.gl
                .get_active_uniform_parameter_i32(program, i, glow::UNIFORM_BLOCK_INDEX)
        });
        self.check("looking up a uniform")?;
        Ok(block.is_some_and(|b| b >= 0))
    }

    fn texture(&mut self, unit: u32, image: &TextureImage) -> Result<(), String> {
        let target = gl_plan::texture_target(image.target);
        let internal = gl_plan::internal_format(&image.internal_format)? as i32;
        self.gl.active_texture(glow::TEXTURE0.saturating_add(unit));
        self.eager_check(&format!("glActiveTexture(GL_TEXTURE{unit})"))?;
        if let Some(i) = self.textures.iter().position(|(u, _)| *u == unit) {
            let (_, old) = self.textures.remove(i);
            self.gl.delete_texture(old);
        }
        let texture = self.gl.create_texture()?;
        self.textures.push((unit, texture));
        self.texture_sizes.retain(|(u, _)| *u != unit);
        if let Some(l0) = image.levels.iter().find(|l| l.level == 0) {
            self.texture_sizes.push((unit, (l0.width, l0.height)));
        }
        self.gl.bind_texture(target, Some(texture));
        for up in gl_plan::level_uploads(image) {
            let [w, h, d] = up.size;
            let px = Some(up.bytes.as_slice());
            let t = up.target;
            match up.dims {
                1 => self
                    .gl
                    .tex_image_1d(t, up.level, internal, w, 0, up.format, up.ty, px),
                2 => self
                    .gl
                    .tex_image_2d(t, up.level, internal, w, h, 0, up.format, up.ty, px),
                _ => self
                    .gl
                    .tex_image_3d(t, up.level, internal, w, h, d, 0, up.format, up.ty, px),
            }
        }
        // rgl names an upload error before setting the maximum level; the
        // host peer checks once after both.
        self.eager_check("texture upload")?;
        if image.levels.len() > 1 {
            let max = image.levels.iter().map(|l| l.level).max().unwrap_or(0);
            self.gl
                .tex_parameter_i32(target, glow::TEXTURE_MAX_LEVEL, max as i32);
        }
        if !G::EAGER_CHECKS {
            self.check("texture upload")?;
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
        let gl = &mut self.gl;
        match change {
            StateChange::Enable(cap) => gl.enable(cap.value),
            StateChange::Disable(cap) => gl.disable(cap.value),
            StateChange::ClipPlane { index, plane } => {
                gl.clip_plane(gl_plan::compat::CLIP_PLANE0.saturating_add(*index), *plane)
            }
            StateChange::Color([r, g, b, a]) => gl.color_4_f32(*r, *g, *b, *a),
            StateChange::TexCoord { unit, coords } => {
                let [s, t, r, q] = *coords;
                gl.multi_tex_coord_4_f32(glow::TEXTURE0.saturating_add(*unit), s, t, r, q)
            }
            StateChange::ShadeModelFlat(flat) => gl.shade_model(if *flat {
                gl_plan::compat::FLAT
            } else {
                gl_plan::compat::SMOOTH
            }),
            StateChange::ProvokingVertexFirst(first) => gl.provoking_vertex(if *first {
                glow::FIRST_VERTEX_CONVENTION
            } else {
                glow::LAST_VERTEX_CONVENTION
            }),
            StateChange::PolygonMode { face, mode } => gl.polygon_mode(face.value, mode.value),
            // glHint: recorded (and queryable); rgl has no implementation-
            // dependent choices for it to steer.
            StateChange::Hint { target, mode } => gl.hint(target.value, mode.value),
            StateChange::DepthFunc(func) => gl.depth_func(func.value),
            StateChange::Projection { frustum, planes } => {
                let [l, r, b, t, n, f] = *planes;
                gl.matrix_mode(gl_plan::compat::PROJECTION);
                gl.load_identity();
                if *frustum {
                    gl.frustum(l, r, b, t, n, f);
                } else {
                    gl.ortho(l, r, b, t, n, f);
                }
                gl.matrix_mode(gl_plan::compat::MODELVIEW);
                gl.load_identity();
            }
        }
        self.check(&gl_plan::state_name(change))
    }

    fn read_color(&mut self, x: i32, y: i32, w: i32, h: i32) -> Result<Vec<[f32; 4]>, String> {
        let n = (w.max(0) as usize) * (h.max(0) as usize);
        let mut bytes = vec![0u8; n * 16];
        if G::EXPLICIT_PIXEL_STATE {
            self.gl.pixel_store_i32(glow::PACK_ALIGNMENT, 1);
        }
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
            .gl
            .uniform_index(program, name)
            .ok_or_else(|| format!("{name} is not an active uniform"))?;
        let v = self
            .gl
            .get_active_uniform_parameter_i32(program, index, pname);
        self.check("glGetActiveUniformsiv")?;
        v.map(i64::from)
            .ok_or_else(|| "glGetActiveUniformsiv returned nothing".to_string())
    }

    fn program_query(&mut self, pname: u32) -> Result<i64, String> {
        let program = self.program()?;
        let v = self.gl.get_program_parameter_i32(program, pname);
        self.check("glGetProgramiv")?;
        Ok(i64::from(v))
    }

    fn program_resource(&mut self, interface: u32, name: &str, prop: u32) -> Result<i64, String> {
        let program = self.program()?;
        let index = self
            .gl
            .program_resource_index(program, interface, name)?
            .ok_or_else(|| format!("{name} is not an active resource of 0x{interface:x}"))?;
        self.check("glGetProgramResourceIndex")?;
        let v = self
            .gl
            .program_resource_i32(program, interface, index, prop)?;
        self.check("glGetProgramResourceiv")?;
        v.map(i64::from)
            .ok_or_else(|| "glGetProgramResourceiv returned nothing".to_string())
    }

    fn dispatch_compute(&mut self, groups: [u32; 3]) -> Result<(), String> {
        self.gl.memory_barrier(super::storage::ALL_BARRIER_BITS);
        self.gl.dispatch_compute(groups[0], groups[1], groups[2]);
        self.gl.memory_barrier(super::storage::ALL_BARRIER_BITS);
        self.check_draw("glDispatchCompute")
    }

    fn memory_barrier(&mut self, bits: u32) -> Result<(), String> {
        self.gl.memory_barrier(bits);
        self.check("glMemoryBarrier")
    }

    fn image_texture(&mut self, unit: u32, format: u32) -> Result<(), String> {
        let Some(&(_, texture)) = self.textures.iter().find(|(u, _)| *u == unit) else {
            return Err(format!("image texture {unit}: no texture on unit {unit}"));
        };
        self.gl
            .bind_image_texture(unit, Some(texture), 0, false, 0, glow::READ_WRITE, format);
        self.check("glBindImageTexture")
    }

    fn fb_tex_2d(&mut self, unit: u32) -> Result<(u32, u32), String> {
        let Some(&(_, texture)) = self.textures.iter().find(|(u, _)| *u == unit) else {
            return Err(format!("fb tex 2d {unit}: no texture on unit {unit}"));
        };
        let size = self
            .texture_sizes
            .iter()
            .find(|(u, _)| *u == unit)
            .map(|(_, s)| *s)
            .ok_or_else(|| format!("fb tex 2d {unit}: the texture has no level 0"))?;
        let fbo = self.gl.create_framebuffer()?;
        self.gl.bind_framebuffer(glow::FRAMEBUFFER, Some(fbo));
        self.gl.framebuffer_texture_2d(
            glow::FRAMEBUFFER,
            glow::COLOR_ATTACHMENT0,
            glow::TEXTURE_2D,
            Some(texture),
            0,
        );
        self.check("glFramebufferTexture2D")?;
        let status = self.gl.check_framebuffer_status(glow::FRAMEBUFFER);
        if status != glow::FRAMEBUFFER_COMPLETE {
            return Err(format!(
                "fb tex 2d {unit}: framebuffer incomplete (0x{status:04x})"
            ));
        }
        if G::EXPLICIT_PIXEL_STATE {
            self.gl.draw_buffer(glow::COLOR_ATTACHMENT0);
            self.gl.read_buffer(glow::COLOR_ATTACHMENT0);
        }
        // Earlier `fb tex 2d` framebuffers live as long as the context, as
        // the textures they name.
        self.fb_tex = Some(fbo);
        self.check("fb tex 2d")?;
        Ok(size)
    }

    fn storage_buffer(&mut self, target: u32, index: u32, size: u32) -> Result<(), String> {
        let buffer = self.gl.create_buffer()?;
        if let Some(at) = self.storage.iter().position(|(k, _)| *k == (target, index)) {
            let (_, old) = self.storage.remove(at);
            self.gl.delete_buffer(old);
        }
        self.storage.push(((target, index), buffer));
        self.gl.bind_buffer_base(target, index, Some(buffer));
        self.gl
            .buffer_data_u8_slice(target, &vec![0; size as usize], glow::DYNAMIC_DRAW);
        self.check("glBufferData")
    }

    fn storage_sub_data(
        &mut self,
        target: u32,
        index: u32,
        offset: u32,
        data: &[u8],
    ) -> Result<(), String> {
        self.bind_storage(target, index)?;
        let offset = i32::try_from(offset).map_err(|_| format!("offset {offset} too large"))?;
        self.gl.buffer_sub_data_u8_slice(target, offset, data);
        self.check("glBufferSubData")
    }

    fn read_storage(
        &mut self,
        target: u32,
        index: u32,
        offset: u32,
        len: u32,
    ) -> Result<Vec<u8>, String> {
        self.bind_storage(target, index)?;
        let offset = i32::try_from(offset).map_err(|_| format!("offset {offset} too large"))?;
        let mut out = vec![0; len as usize];
        self.gl.get_buffer_sub_data(target, offset, &mut out);
        self.check("glGetBufferSubData")?;
        Ok(out)
    }
}
