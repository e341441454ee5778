//! The draw path: `glDrawArrays`/`glDrawElements` and their instanced and
//! base-vertex forms. A draw validates its arguments and the current program,
//! reads the state that affects code generation into a [`VariantKey`], fetches or
//! builds the variant, then hands the driver everything it reads: render targets,
//! state objects, uniforms (the program's storage, the compatibility built-ins and
//! the state-tracker slots), uniform buffers, textures, vertex inputs and indices.
//!
//! Errors follow GL: a rejected draw records its error and draws nothing. When the
//! failure has a cause worth reading (a shader the driver cannot compile, a shader
//! that ran past its instruction budget), [`Context::last_draw_error`] says what it
//! was.

use std::sync::Arc;

use rgl_backend::driver::ShaderStage;
use rgl_backend::driver::{
    BufferRange, DrawInfo, IndexBuffer, IndexSize, PrimMode, VertexBufferBinding, VertexSource,
};
use rgl_backend::format::{VertexFormat, VertexType};
use rgl_glsl::types::{SamplerDim, Type};
use rgl_nir::ir::names::{
    VERT_ATTRIB_COLOR0, VERT_ATTRIB_GENERIC0, VERT_ATTRIB_NORMAL, VERT_ATTRIB_POS,
    VERT_ATTRIB_TEX0, VERT_ATTRIB_TEX_COUNT,
};

use crate::driver_state::StateObjects;
use crate::error::{GlError, GlResult};
use crate::gl;
use crate::names::Program;
use crate::texture::SamplerUse;
use crate::variants::{
    Variant, VariantKey, STATE_SLOTS, STATE_SLOT_ALPHA_REF, STATE_SLOT_CLIP_PLANE0,
};
use crate::vertex_array::{AttribArray, AttribKind};
use crate::Context;

/// Per-context scratch of the draw path, kept between draws so a repeated draw
/// allocates nothing and re-uploads nothing that did not change.
#[derive(Debug, Default)]
pub(crate) struct DrawScratch {
    /// The uniform words last given to the driver.
    uniforms: Vec<u32>,
    /// Words being assembled for this draw.
    next_uniforms: Vec<u32>,
    /// Vertex elements objects by layout (see [`StateObjects`]).
    elements: StateObjects<Vec<VertexSource>, rgl_backend::driver::VertexElementsHandle>,
}

fn prim_mode(mode: u32) -> Option<PrimMode> {
    Some(match mode {
        gl::POINTS => PrimMode::Points,
        gl::LINES => PrimMode::Lines,
        gl::LINE_STRIP => PrimMode::LineStrip,
        gl::LINE_LOOP => PrimMode::LineLoop,
        gl::TRIANGLES => PrimMode::Triangles,
        gl::TRIANGLE_STRIP => PrimMode::TriangleStrip,
        gl::TRIANGLE_FAN => PrimMode::TriangleFan,
        gl::QUADS => PrimMode::Quads,
        gl::QUAD_STRIP => PrimMode::QuadStrip,
        gl::POLYGON => PrimMode::Polygon,
        gl::LINES_ADJACENCY => PrimMode::LinesAdjacency,
        gl::LINE_STRIP_ADJACENCY => PrimMode::LineStripAdjacency,
        gl::TRIANGLES_ADJACENCY => PrimMode::TrianglesAdjacency,
        gl::TRIANGLE_STRIP_ADJACENCY => PrimMode::TriangleStripAdjacency,
        _ => return None,
    })
}

fn vertex_type(t: u32) -> Option<VertexType> {
    Some(match t {
        gl::BYTE => VertexType::I8,
        gl::UNSIGNED_BYTE => VertexType::U8,
        gl::SHORT => VertexType::I16,
        gl::UNSIGNED_SHORT => VertexType::U16,
        gl::INT => VertexType::I32,
        gl::UNSIGNED_INT => VertexType::U32,
        gl::HALF_FLOAT => VertexType::F16,
        gl::FLOAT => VertexType::F32,
        gl::DOUBLE => VertexType::F64,
        gl::FIXED => VertexType::Fixed,
        gl::INT_2_10_10_10_REV => VertexType::I2_10_10_10Rev,
        gl::UNSIGNED_INT_2_10_10_10_REV => VertexType::U2_10_10_10Rev,
        _ => return None,
    })
}

/// The texture target a sampler type reads (GL 4.3 table 7.3).
fn sampler_target(dim: SamplerDim, arrayed: bool) -> u32 {
    match (dim, arrayed) {
        (SamplerDim::D1, false) => gl::TEXTURE_1D,
        (SamplerDim::D1, true) => gl::TEXTURE_1D_ARRAY,
        (SamplerDim::D2, true) => gl::TEXTURE_2D_ARRAY,
        (SamplerDim::D3, _) => gl::TEXTURE_3D,
        (SamplerDim::Cube, _) => gl::TEXTURE_CUBE_MAP,
        (SamplerDim::Rect, _) => gl::TEXTURE_RECTANGLE,
        _ => gl::TEXTURE_2D,
    }
}

impl Context {
    /// `glDrawArrays`.
    pub fn draw_arrays(&mut self, mode: u32, first: i32, count: i32) {
        self.draw_arrays_instanced_base_instance(mode, first, count, 1, 0);
    }

    /// `glDrawArraysInstanced`.
    pub fn draw_arrays_instanced(&mut self, mode: u32, first: i32, count: i32, instances: i32) {
        self.draw_arrays_instanced_base_instance(mode, first, count, instances, 0);
    }

    /// `glDrawArraysInstancedBaseInstance`.
    pub fn draw_arrays_instanced_base_instance(
        &mut self,
        mode: u32,
        first: i32,
        count: i32,
        instances: i32,
        base_instance: u32,
    ) {
        let r = (|| {
            let mode = prim_mode(mode).ok_or(GlError::InvalidEnum)?;
            if first < 0 || count < 0 || instances < 0 {
                return Err(GlError::InvalidValue);
            }
            let info = DrawInfo {
                instance_count: instances as u32,
                start_instance: base_instance,
                ..DrawInfo::arrays(mode, first as u32, count as u32)
            };
            self.draw(info)
        })();
        self.check(r);
    }

    /// `glDrawElements` with indices at byte `offset` of the bound element buffer.
    pub fn draw_elements(&mut self, mode: u32, count: i32, element_type: u32, offset: i32) {
        self.draw_elements_instanced_base_vertex(mode, count, element_type, offset, 1, 0);
    }

    /// `glDrawElementsInstanced`.
    pub fn draw_elements_instanced(
        &mut self,
        mode: u32,
        count: i32,
        element_type: u32,
        offset: i32,
        instances: i32,
    ) {
        self.draw_elements_instanced_base_vertex(mode, count, element_type, offset, instances, 0);
    }

    /// `glDrawElementsBaseVertex`.
    pub fn draw_elements_base_vertex(
        &mut self,
        mode: u32,
        count: i32,
        element_type: u32,
        offset: i32,
        base_vertex: i32,
    ) {
        self.draw_elements_instanced_base_vertex(mode, count, element_type, offset, 1, base_vertex);
    }

    /// `glDrawRangeElements` (the range is a hint; `end < start` is an error).
    pub fn draw_range_elements(
        &mut self,
        mode: u32,
        start: u32,
        end: u32,
        count: i32,
        element_type: u32,
        offset: i32,
    ) {
        if end < start {
            return self.record(GlError::InvalidValue);
        }
        self.draw_elements(mode, count, element_type, offset);
    }

    /// `glDrawElementsInstancedBaseVertex`.
    pub fn draw_elements_instanced_base_vertex(
        &mut self,
        mode: u32,
        count: i32,
        element_type: u32,
        offset: i32,
        instances: i32,
        base_vertex: i32,
    ) {
        let r = (|| {
            let mode = prim_mode(mode).ok_or(GlError::InvalidEnum)?;
            let size = match element_type {
                gl::UNSIGNED_BYTE => IndexSize::U8,
                gl::UNSIGNED_SHORT => IndexSize::U16,
                gl::UNSIGNED_INT => IndexSize::U32,
                _ => return Err(GlError::InvalidEnum),
            };
            if count < 0 || instances < 0 || offset < 0 {
                return Err(GlError::InvalidValue);
            }
            let Some(buffer) = self.vao().element_buffer else {
                self.draw_error = Some("client-side index arrays are not supported".into());
                return Err(GlError::InvalidOperation);
            };
            let handle = self.sync_buffer(buffer)?;
            let info = DrawInfo {
                mode,
                start: 0,
                count: count as u32,
                instance_count: instances as u32,
                start_instance: 0,
                base_vertex,
                index: Some(IndexBuffer {
                    buffer: handle,
                    offset: offset as u64,
                    size,
                }),
                restart_index: None,
            };
            self.draw(info)
        })();
        self.check(r);
    }

    /// `glFinish`: waits for the driver.
    pub fn finish(&mut self) {
        if let Err(e) = self.driver.finish() {
            self.draw_error = Some(e.to_string());
            self.record(GlError::OutOfMemory);
        }
    }

    /// Waits until the driver's background shader work queued so far is done
    /// (a tiered JIT's optimised rebuilds, `RGL_JIT=tier=on`): later draws run
    /// the final code, and the on-disk cache holds it. No GL command does
    /// this; tests and benchmarks use it to make the tier-up deterministic.
    pub fn wait_background_compiles(&self) {
        self.driver.wait_background_compiles();
    }

    /// `glFlush`.
    pub fn flush(&mut self) {
        if let Err(e) = self.driver.flush() {
            self.draw_error = Some(e.to_string());
            self.record(GlError::OutOfMemory);
        }
    }

    /// Why the last failed draw failed beyond its GL error code (a shader the
    /// driver could not compile, an exceeded instruction budget, ...); `None` after
    /// a draw that succeeded.
    pub fn last_draw_error(&self) -> Option<String> {
        self.draw_error.clone()
    }

    /// Validates and executes one draw.
    fn draw(&mut self, mut info: DrawInfo) -> GlResult<()> {
        self.draw_error = None;
        self.finish_current_program();
        let Some(program) = self.current_program else {
            self.draw_error =
                Some("no program is current (fixed-function drawing is not supported)".into());
            return Err(GlError::InvalidOperation);
        };
        let p = self.program_obj(program)?;
        if p.linked.is_none() {
            return Err(GlError::InvalidOperation);
        }
        let (generation, traits) = (p.generation, p.traits);
        if let Some(input) = traits.gs_input.filter(|_| !traits.accepts(info.mode)) {
            self.draw_error = Some(format!(
                "draw mode {:?} does not match the geometry shader's input primitive {}",
                info.mode,
                input.name()
            ));
            return Err(GlError::InvalidOperation);
        }
        let key = VariantKey::from_state(&self.fixed, &traits);
        let variant = self.get_variant(program, generation, key)?;
        self.validate_draw_framebuffer()?;
        // GL 3.3 §2.16: a discarded draw has no effect beyond its errors.
        if info.count == 0 || info.instance_count == 0 || self.render_discarded() {
            return Ok(());
        }
        if self.fixed.primitive_restart && info.index.is_some() {
            info.restart_index = Some(self.fixed.restart_index);
        }
        self.bind_fixed_state()?;
        self.upload_uniforms(program)?;
        self.bind_uniform_blocks(program)?;
        let samplers = self.sampler_uses(program)?;
        self.validate_textures(&samplers)?;
        self.bind_vertex_inputs(&variant)?;
        // Storage blocks and atomic counters (GL 4.3 §7.8, GL 4.2 §7.7): the
        // draw reads and writes the bound ranges; the buffer objects get the
        // driver's contents back after it, as after a dispatch.
        let (storage, used) = if traits.uses_storage {
            self.storage_bindings(program)?
        } else {
            (Vec::new(), Vec::new())
        };
        // Image units (GL 4.2 §8.26), resolved after the sampled textures so a
        // texture both sampled and bound as an image has its driver texture.
        let images = self.image_bindings(program)?;
        let d = self.driver.as_mut();
        let bind = d
            .bind_shader(ShaderStage::Vertex, Some(variant.vs))
            .and_then(|_| d.bind_shader(ShaderStage::Geometry, variant.gs))
            .and_then(|_| d.bind_shader(ShaderStage::Fragment, Some(variant.fs)));
        let bind = if traits.uses_storage {
            bind.and_then(|_| d.set_storage_buffers(&storage))
        } else {
            bind
        };
        let bind = if images.is_empty() {
            bind
        } else {
            bind.and_then(|_| d.set_images(&images))
        };
        let result = bind.and_then(|_| d.draw(&info));
        for buffer in used {
            self.read_back(buffer)?;
        }
        if let Err(e) = result {
            log::warn!("draw failed: {e}");
            self.draw_error = Some(e.to_string());
            return Err(match e {
                rgl_backend::Error::TooLarge(_) => GlError::OutOfMemory,
                _ => GlError::InvalidOperation,
            });
        }
        Ok(())
    }

    /// Uploads the program's default-block storage, its compatibility built-ins and
    /// the state-tracker slots, when they differ from what the driver has.
    pub(crate) fn upload_uniforms(&mut self, program: Program) -> GlResult<()> {
        let mut words = std::mem::take(&mut self.draw_scratch.next_uniforms);
        words.clear();
        let p = self.program_obj(program)?;
        let linked = p.linked.as_deref().ok_or(GlError::InvalidOperation)?;
        words.extend(p.uniforms.slots.iter().flatten());
        let base = linked.uniform_slots as usize;
        words.resize(base * 4, 0);
        for u in &linked.uniforms {
            if !u.name.starts_with("gl_") || u.block.is_some() || u.ty.is_sampler() {
                continue;
            }
            if let Some(slots) = self.builtin_uniform(&u.name, u.array_size) {
                for (i, s) in slots.iter().enumerate() {
                    let at = (u.slot as usize + i) * 4;
                    if let Some(dst) = words.get_mut(at..at + 4) {
                        for (d, v) in dst.iter_mut().zip(s) {
                            *d = v.to_bits();
                        }
                    }
                }
            }
        }
        words.resize((base + STATE_SLOTS as usize) * 4, 0);
        let alpha_ref = self.fixed.alpha_func.1;
        words[(base + STATE_SLOT_ALPHA_REF as usize) * 4] = alpha_ref.to_bits();
        let mvp_inv_planes = self.fixed.clip_plane_eqs;
        for (i, plane) in mvp_inv_planes.iter().enumerate() {
            let at = (base + STATE_SLOT_CLIP_PLANE0 as usize + i) * 4;
            for c in 0..4 {
                words[at + c] = (plane[c] as f32).to_bits();
            }
        }
        if words != self.draw_scratch.uniforms {
            if let Err(e) = self.driver.set_uniforms(&words) {
                self.draw_scratch.next_uniforms = words;
                self.draw_error = Some(e.to_string());
                return Err(GlError::OutOfMemory);
            }
            std::mem::swap(&mut self.draw_scratch.uniforms, &mut words);
        }
        self.draw_scratch.next_uniforms = words;
        Ok(())
    }

    /// Binds the buffer ranges of the program's uniform blocks.
    pub(crate) fn bind_uniform_blocks(&mut self, program: Program) -> GlResult<()> {
        let p = self.program_obj(program)?;
        let linked = p.linked.as_deref().ok_or(GlError::InvalidOperation)?;
        let blocks: Vec<(u32, u32)> = linked
            .uniform_blocks
            .iter()
            .enumerate()
            .map(|(i, b)| (p.block_bindings.get(i).copied().unwrap_or(0), b.data_size))
            .collect();
        for (slot, (binding, data_size)) in blocks.into_iter().enumerate() {
            let b = self
                .buffer_bindings
                .uniform_indexed
                .get(binding as usize)
                .copied()
                .unwrap_or_default();
            let range = match b.buffer {
                Some(buffer) => {
                    let handle = self.sync_buffer(buffer)?;
                    let len = self.buffers.get(buffer.name()).map_or(0, |o| o.data.len());
                    let size = b.size.unwrap_or(len.saturating_sub(b.offset));
                    if size < data_size as usize {
                        log::debug!(
                            "uniform block {slot}: bound range of {size} bytes is smaller than \
                             the block ({data_size}); reads past it return 0"
                        );
                    }
                    Some(BufferRange {
                        buffer: handle,
                        offset: b.offset as u64,
                        size: size as u64,
                    })
                }
                None => None,
            };
            if let Err(e) = self.driver.set_uniform_buffer(slot as u32, range) {
                self.draw_error = Some(e.to_string());
                return Err(GlError::InvalidOperation);
            }
        }
        Ok(())
    }

    /// The texture unit, target and shadow-ness of each program sampler index
    /// (what a draw or a compute dispatch binds).
    pub(crate) fn sampler_uses(&self, program: Program) -> GlResult<Vec<SamplerUse>> {
        let p = self.program_obj(program)?;
        let linked = p.linked.as_deref().ok_or(GlError::InvalidOperation)?;
        let mut uses = vec![
            SamplerUse {
                unit: 0,
                target: gl::TEXTURE_2D,
                shadow: false,
                float_shadow: false,
            };
            linked.num_samplers as usize
        ];
        for u in &linked.uniforms {
            let (Some(base), Type::Sampler(s)) = (u.sampler_index, &u.ty) else {
                continue;
            };
            for e in 0..u.array_size.max(1) {
                let i = (base + e) as usize;
                if let Some(slot) = uses.get_mut(i) {
                    *slot = SamplerUse {
                        unit: p.uniforms.sampler_units.get(i).copied().unwrap_or(0),
                        target: sampler_target(s.dim, s.arrayed),
                        shadow: s.shadow,
                        float_shadow: s.shadow && linked.version.at_least(130, 300),
                    };
                }
            }
        }
        Ok(uses)
    }

    /// The array feeding attribute location `loc`, or its constant value.
    /// `reads_position`: the vertex shader also reads `gl_Vertex`.
    fn attrib_source(&self, loc: i32, reads_position: bool) -> Result<AttribArray, [u32; 4]> {
        let vao = self.vao();
        let one = 1.0f32.to_bits();
        if loc >= VERT_ATTRIB_GENERIC0 {
            let n = (loc - VERT_ATTRIB_GENERIC0) as usize;
            return match vao.attribs.get(n) {
                Some(a) if a.enabled => Ok(*a),
                // Compatibility: a shader that reads generic attribute 0 but not
                // gl_Vertex takes it from the glVertexPointer array (Mesa's
                // "generic 0 aliases position" attribute mapping).
                _ if n == 0 && !reads_position => match vao.legacy.first() {
                    Some(a) if a.enabled => Ok(*a),
                    _ => Err(self.current_attribs[0]),
                },
                _ => Err(self
                    .current_attribs
                    .get(n)
                    .copied()
                    .unwrap_or([0, 0, 0, one])),
            };
        }
        if let Some(a) = vao.legacy.get(loc as usize).filter(|a| a.enabled) {
            return Ok(*a);
        }
        // Compatibility: generic attribute 0 aliases gl_Vertex.
        if loc == VERT_ATTRIB_POS && vao.attribs[0].enabled {
            return Ok(vao.attribs[0]);
        }
        let m = &self.matrices;
        let texcoords = VERT_ATTRIB_TEX0..VERT_ATTRIB_TEX0 + VERT_ATTRIB_TEX_COUNT;
        Err(match loc {
            VERT_ATTRIB_NORMAL => [0.0f32, 0.0, 1.0, 0.0].map(f32::to_bits),
            VERT_ATTRIB_COLOR0 => m.color.map(f32::to_bits),
            _ if texcoords.contains(&loc) => {
                m.texcoords[(loc - VERT_ATTRIB_TEX0) as usize].map(f32::to_bits)
            }
            VERT_ATTRIB_POS => self.current_attribs[0],
            _ => [0, 0, 0, one],
        })
    }

    /// Creates (when changed) and binds the vertex elements and buffers for the
    /// variant's vertex shader inputs.
    fn bind_vertex_inputs(&mut self, variant: &Arc<Variant>) -> GlResult<()> {
        let mut elements = Vec::with_capacity(variant.vs_inputs.len());
        let mut buffers = Vec::new();
        let reads_position = variant.vs_inputs.contains(&Some(VERT_ATTRIB_POS));
        for loc in &variant.vs_inputs {
            let Some(loc) = *loc else {
                elements.push(VertexSource::Constant([0; 4]));
                continue;
            };
            match self.attrib_source(loc, reads_position) {
                Err(words) => elements.push(VertexSource::Constant(words)),
                Ok(a) => {
                    let Some(buffer) = a.buffer else {
                        self.draw_error = Some(format!(
                            "attribute at location {loc} is enabled without a buffer \
                             (client-side arrays are not supported)"
                        ));
                        return Err(GlError::InvalidOperation);
                    };
                    let ty = vertex_type(a.data_type).ok_or(GlError::InvalidOperation)?;
                    let format = VertexFormat {
                        ty,
                        size: a.size,
                        normalized: a.normalized,
                        pure_integer: a.kind == AttribKind::Integer,
                        bgra: false,
                    };
                    let handle = self.sync_buffer(buffer)?;
                    let stride = if a.stride == 0 {
                        format.element_bytes() as u32
                    } else {
                        a.stride
                    };
                    elements.push(VertexSource::Array {
                        buffer: buffers.len() as u32,
                        offset: 0,
                        format,
                        divisor: a.divisor,
                    });
                    buffers.push(VertexBufferBinding {
                        buffer: handle,
                        offset: a.offset as u64,
                        stride,
                    });
                }
            }
        }
        let d = self.driver.as_mut();
        let h = self
            .draw_scratch
            .elements
            .get(
                d,
                &elements,
                |d, e| d.create_vertex_elements(e),
                rgl_backend::driver::StateHandle::VertexElements,
            )
            .map_err(|e| {
                log::warn!("vertex elements rejected: {e}");
                GlError::InvalidOperation
            })?;
        let r = d
            .bind_vertex_elements(h)
            .and_then(|_| d.set_vertex_buffers(&buffers));
        if let Err(e) = r {
            self.draw_error = Some(e.to_string());
            return Err(GlError::InvalidOperation);
        }
        Ok(())
    }
}
