//! `glGetIntegerv` / `glGetFloatv` of the rasterizer, per-fragment, matrix and
//! buffer-binding state (the state tables of GL 3.3 compatibility §6.2), and
//! `glGetVertexAttrib*` / `glGetClipPlane`. The values come out in the type asked
//! for, converted as GL 3.3 §6.1.2 says: colors and depth values map linearly to
//! the full integer range, other floats round to the nearest integer.

use crate::error::GlError;
use crate::gl;
use crate::limits;
use crate::vertex_array::{AttribArray, AttribKind};
use crate::Context;

/// One queried state value: how it converts to an integer.
#[derive(Copy, Clone, Debug)]
enum Value {
    /// An integer or enum.
    Int(i64),
    /// A float that rounds to the nearest integer.
    Float(f64),
    /// A color or depth component: `[-1, 1]` maps to the integer range.
    Normalized(f64),
}

impl Value {
    fn as_f32(self) -> f32 {
        match self {
            Value::Int(i) => i as f32,
            Value::Float(f) | Value::Normalized(f) => f as f32,
        }
    }

    fn as_i32(self) -> i32 {
        match self {
            Value::Int(i) => i as i32,
            Value::Float(f) => f.round().clamp(i32::MIN as f64, i32::MAX as f64) as i32,
            // GL 3.3 §6.1.2: c ∈ [-1, 1] becomes ((2^32 - 1) c - 1) / 2.
            Value::Normalized(f) => {
                let c = f.clamp(-1.0, 1.0);
                ((u32::MAX as f64 * c - 1.0) / 2.0).round() as i32
            }
        }
    }
}

fn ints(v: impl IntoIterator<Item = i64>) -> Vec<Value> {
    v.into_iter().map(Value::Int).collect()
}

fn enum_value(e: u32) -> Vec<Value> {
    vec![Value::Int(e as i64)]
}

impl Context {
    /// The values of `pname` among the state this module answers for.
    fn state_values(&self, pname: u32) -> Option<Vec<Value>> {
        let s = &self.fixed;
        let [front, back] = &s.stencil;
        let b = &s.blend_state;
        let name = |b: Option<crate::names::Buffer>| b.map_or(0, |b| b.name() as i64);
        let bb = &self.buffer_bindings;
        let matrix = |stack: &Vec<crate::matrices::Mat4>| {
            stack
                .last()
                .copied()
                .unwrap_or(crate::matrices::IDENTITY)
                .into_iter()
                .map(Value::Float)
                .collect::<Vec<_>>()
        };
        let m = &self.matrices;
        let texture_stack = m.texture.get(m.texture_unit);
        Some(match pname {
            gl::VIEWPORT => ints(s.viewport.map(i64::from)),
            gl::SCISSOR_BOX => ints(s.scissor.map(i64::from)),
            gl::MAX_VIEWPORT_DIMS => ints([limits::MAX_VIEWPORT_DIMS as i64; 2]),
            gl::DEPTH_RANGE => s.depth_range.map(Value::Normalized).to_vec(),
            gl::DEPTH_WRITEMASK => ints([s.depth_mask as i64]),
            gl::DEPTH_CLEAR_VALUE => vec![Value::Normalized(s.clear_depth)],
            gl::DEPTH_FUNC => enum_value(s.depth_func),
            gl::STENCIL_CLEAR_VALUE => ints([s.clear_stencil as i64]),
            gl::STENCIL_FUNC => enum_value(front.func),
            gl::STENCIL_VALUE_MASK => ints([front.value_mask as i32 as i64]),
            gl::STENCIL_FAIL => enum_value(front.fail),
            gl::STENCIL_PASS_DEPTH_FAIL => enum_value(front.zfail),
            gl::STENCIL_PASS_DEPTH_PASS => enum_value(front.zpass),
            gl::STENCIL_REF => ints([front.reference as i64]),
            gl::STENCIL_WRITEMASK => ints([front.write_mask as i32 as i64]),
            gl::STENCIL_BACK_FUNC => enum_value(back.func),
            gl::STENCIL_BACK_VALUE_MASK => ints([back.value_mask as i32 as i64]),
            gl::STENCIL_BACK_FAIL => enum_value(back.fail),
            gl::STENCIL_BACK_PASS_DEPTH_FAIL => enum_value(back.zfail),
            gl::STENCIL_BACK_PASS_DEPTH_PASS => enum_value(back.zpass),
            gl::STENCIL_BACK_REF => ints([back.reference as i64]),
            gl::STENCIL_BACK_WRITEMASK => ints([back.write_mask as i32 as i64]),
            gl::BLEND_COLOR => s.blend_color.map(|c| Value::Normalized(c.into())).to_vec(),
            gl::BLEND_EQUATION_RGB => enum_value(b.eq_rgb),
            gl::BLEND_EQUATION_ALPHA => enum_value(b.eq_alpha),
            gl::BLEND_SRC_RGB => enum_value(b.src_rgb),
            gl::BLEND_DST_RGB => enum_value(b.dst_rgb),
            gl::BLEND_SRC_ALPHA => enum_value(b.src_alpha),
            gl::BLEND_DST_ALPHA => enum_value(b.dst_alpha),
            gl::COLOR_CLEAR_VALUE => s.clear_color.map(|c| Value::Normalized(c.into())).to_vec(),
            gl::COLOR_WRITEMASK => ints(s.color_mask.map(i64::from)),
            gl::CULL_FACE_MODE => enum_value(s.cull_mode),
            gl::FRONT_FACE => enum_value(s.front_face),
            gl::POLYGON_MODE => ints(s.polygon_mode.map(i64::from)),
            gl::POLYGON_OFFSET_FACTOR => vec![Value::Float(s.polygon_offset_params[0].into())],
            gl::POLYGON_OFFSET_UNITS => vec![Value::Float(s.polygon_offset_params[1].into())],
            gl::PROVOKING_VERTEX => enum_value(s.provoking_vertex),
            gl::POINT_SIZE => vec![Value::Float(s.point_size.into())],
            gl::LINE_WIDTH => vec![Value::Float(s.line_width.into())],
            gl::PRIMITIVE_RESTART_INDEX => ints([s.restart_index as i32 as i64]),
            gl::ALPHA_TEST_FUNC => enum_value(s.alpha_func.0),
            gl::ALPHA_TEST_REF => vec![Value::Normalized(s.alpha_func.1.into())],
            gl::SHADE_MODEL => enum_value(s.shade_model),
            gl::MATRIX_MODE => enum_value(m.mode),
            gl::MODELVIEW_STACK_DEPTH => ints([m.modelview.len() as i64]),
            gl::PROJECTION_STACK_DEPTH => ints([m.projection.len() as i64]),
            gl::TEXTURE_STACK_DEPTH => ints([texture_stack.map_or(1, Vec::len) as i64]),
            gl::MODELVIEW_MATRIX => matrix(&m.modelview),
            gl::PROJECTION_MATRIX => matrix(&m.projection),
            gl::TEXTURE_MATRIX => texture_stack.map_or_else(|| matrix(&Vec::new()), matrix),
            gl::CURRENT_COLOR => m.color.map(|c| Value::Normalized(c.into())).to_vec(),
            gl::CURRENT_TEXTURE_COORDS => {
                let unit = self.textures.active_unit as usize;
                let tc = m
                    .texcoords
                    .get(unit)
                    .copied()
                    .unwrap_or([0.0, 0.0, 0.0, 1.0]);
                tc.map(|c| Value::Float(c.into())).to_vec()
            }
            gl::CLIENT_ACTIVE_TEXTURE => ints([(gl::TEXTURE0 + self.client_active_texture) as i64]),
            gl::UNIFORM_BUFFER_BINDING => ints([name(bb.uniform)]),
            gl::SHADER_STORAGE_BUFFER_BINDING => ints([name(bb.shader_storage)]),
            gl::ATOMIC_COUNTER_BUFFER_BINDING => ints([name(bb.atomic_counter)]),
            gl::DISPATCH_INDIRECT_BUFFER_BINDING => ints([name(bb.dispatch_indirect)]),
            gl::COPY_READ_BUFFER_BINDING => ints([name(bb.copy_read)]),
            gl::COPY_WRITE_BUFFER_BINDING => ints([name(bb.copy_write)]),
            gl::PIXEL_PACK_BUFFER_BINDING => ints([name(bb.pixel_pack)]),
            gl::PIXEL_UNPACK_BUFFER_BINDING => ints([name(bb.pixel_unpack)]),
            _ => return None,
        })
    }

    /// The single value of `pname` for `get_parameter_i32`, if this module
    /// answers for it (`None`: not one of its names).
    pub(crate) fn state_parameter_i32(&self, pname: u32) -> Option<i32> {
        self.state_values(pname)
            .and_then(|v| v.first().copied())
            .map(Value::as_i32)
    }

    /// `glGetIntegerv` of state with several values (`GL_VIEWPORT`,
    /// `GL_COLOR_WRITEMASK`, `GL_MODELVIEW_MATRIX` ...) or one. Writes as many
    /// values as `out` holds; an unknown `pname` is `GL_INVALID_ENUM` and
    /// leaves `out` alone.
    pub fn get_parameter_i32_slice(&mut self, pname: u32, out: &mut [i32]) {
        if let Some(values) = self.state_values(pname) {
            for (o, v) in out.iter_mut().zip(values) {
                *o = v.as_i32();
            }
            return;
        }
        let v = self.get_parameter_i32(pname);
        if let Some(o) = out.first_mut() {
            *o = v;
        }
    }

    /// `glGetFloatv`: like [`Context::get_parameter_i32_slice`], with floats
    /// returned unconverted and integer state converted to float.
    pub fn get_parameter_f32_slice(&mut self, pname: u32, out: &mut [f32]) {
        if let Some(values) = self.state_values(pname) {
            for (o, v) in out.iter_mut().zip(values) {
                *o = v.as_f32();
            }
            return;
        }
        let v = self.get_parameter_i32(pname);
        if let Some(o) = out.first_mut() {
            *o = v as f32;
        }
    }

    /// The array state of generic attribute `index` of the bound VAO.
    fn attrib_array(&self, index: u32) -> Option<&AttribArray> {
        self.vao().attribs.get(index as usize)
    }

    /// `glGetVertexAttribiv`. An index of `GL_MAX_VERTEX_ATTRIBS` or more is
    /// `GL_INVALID_VALUE`, an unknown `pname` `GL_INVALID_ENUM` (GL 3.3 §6.1.12).
    /// `GL_CURRENT_VERTEX_ATTRIB` gives the first component (see
    /// [`Context::get_vertex_attrib_f32_slice`] for all four).
    pub fn get_vertex_attrib_i32(&mut self, index: u32, pname: u32) -> i32 {
        let Some(a) = self.attrib_array(index) else {
            self.record(GlError::InvalidValue);
            return 0;
        };
        match pname {
            gl::VERTEX_ATTRIB_ARRAY_ENABLED => a.enabled as i32,
            gl::VERTEX_ATTRIB_ARRAY_SIZE => a.size as i32,
            gl::VERTEX_ATTRIB_ARRAY_STRIDE => a.stride as i32,
            gl::VERTEX_ATTRIB_ARRAY_TYPE => a.data_type as i32,
            gl::VERTEX_ATTRIB_ARRAY_NORMALIZED => a.normalized as i32,
            gl::VERTEX_ATTRIB_ARRAY_INTEGER => (a.kind == AttribKind::Integer) as i32,
            gl::VERTEX_ATTRIB_ARRAY_DIVISOR => a.divisor as i32,
            gl::VERTEX_ATTRIB_ARRAY_BUFFER_BINDING => a.buffer.map_or(0, |b| b.name()) as i32,
            gl::VERTEX_ATTRIB_ARRAY_POINTER => a.offset as i32,
            gl::CURRENT_VERTEX_ATTRIB => {
                f32::from_bits(self.current_attribs[index as usize][0]).round() as i32
            }
            _ => {
                self.record(GlError::InvalidEnum);
                0
            }
        }
    }

    /// `glGetVertexAttribfv`: for `GL_CURRENT_VERTEX_ATTRIB`, the four
    /// components of generic attribute `index`'s current value. A value set by
    /// `glVertexAttribI4*` comes back as its bit pattern (GL 3.3 §6.1.12 leaves
    /// that query undefined). Other `pname`s give the one value
    /// [`Context::get_vertex_attrib_i32`] gives, in `out[0]`.
    pub fn get_vertex_attrib_f32_slice(&mut self, index: u32, pname: u32, out: &mut [f32]) {
        if index >= limits::MAX_VERTEX_ATTRIBS {
            return self.record(GlError::InvalidValue);
        }
        if pname == gl::CURRENT_VERTEX_ATTRIB {
            let words = self.current_attribs[index as usize];
            for (o, w) in out.iter_mut().zip(words) {
                *o = f32::from_bits(w);
            }
            return;
        }
        let v = self.get_vertex_attrib_i32(index, pname);
        if let Some(o) = out.first_mut() {
            *o = v as f32;
        }
    }

    /// `glGetIntegeri_v` (GL 4.3 §6.1.15, table 23.70): the indexed uniform,
    /// shader storage and atomic counter buffer bindings (`*_BINDING`,
    /// `*_START`, `*_SIZE`) and `GL_MAX_COMPUTE_WORK_GROUP_COUNT` / `_SIZE`
    /// (index 0 to 2), and the image unit state `GL_IMAGE_BINDING_*` (GL 4.2
    /// §8.26, see [`Context::image_binding_query`]). An index at or past the
    /// binding count (or 3) is
    /// `GL_INVALID_VALUE`, another `pname` `GL_INVALID_ENUM`. A binding made
    /// by `glBindBufferBase` has start and size 0.
    pub fn get_parameter_indexed_i32(&mut self, pname: u32, index: u32) -> i32 {
        let workgroup = match pname {
            gl::MAX_COMPUTE_WORK_GROUP_COUNT => Some(limits::MAX_COMPUTE_WORK_GROUP_COUNT),
            gl::MAX_COMPUTE_WORK_GROUP_SIZE => Some(limits::MAX_COMPUTE_WORK_GROUP_SIZE),
            _ => None,
        };
        if let Some(value) = self.image_binding_query(pname, index) {
            return value;
        }
        if let Some(values) = workgroup {
            return match values.get(index as usize) {
                Some(v) => (*v).min(i32::MAX as u32) as i32,
                None => {
                    self.record(GlError::InvalidValue);
                    0
                }
            };
        }
        let (target, what) = match pname {
            gl::UNIFORM_BUFFER_BINDING => (gl::UNIFORM_BUFFER, 0),
            gl::UNIFORM_BUFFER_START => (gl::UNIFORM_BUFFER, 1),
            gl::UNIFORM_BUFFER_SIZE => (gl::UNIFORM_BUFFER, 2),
            gl::SHADER_STORAGE_BUFFER_BINDING => (gl::SHADER_STORAGE_BUFFER, 0),
            gl::SHADER_STORAGE_BUFFER_START => (gl::SHADER_STORAGE_BUFFER, 1),
            gl::SHADER_STORAGE_BUFFER_SIZE => (gl::SHADER_STORAGE_BUFFER, 2),
            gl::ATOMIC_COUNTER_BUFFER_BINDING => (gl::ATOMIC_COUNTER_BUFFER, 0),
            gl::ATOMIC_COUNTER_BUFFER_START => (gl::ATOMIC_COUNTER_BUFFER, 1),
            gl::ATOMIC_COUNTER_BUFFER_SIZE => (gl::ATOMIC_COUNTER_BUFFER, 2),
            _ => {
                self.record(GlError::InvalidEnum);
                return 0;
            }
        };
        let count = match target {
            gl::UNIFORM_BUFFER => limits::MAX_UNIFORM_BUFFER_BINDINGS,
            gl::SHADER_STORAGE_BUFFER => limits::MAX_SHADER_STORAGE_BUFFER_BINDINGS,
            _ => limits::MAX_ATOMIC_COUNTER_BUFFER_BINDINGS,
        };
        if index >= count {
            self.record(GlError::InvalidValue);
            return 0;
        }
        let b = self
            .buffer_bindings
            .indexed(target)
            .and_then(|slots| slots.get(index as usize))
            .copied()
            .unwrap_or_default();
        match what {
            0 => b.buffer.map_or(0, |b| b.name() as i32),
            1 => match b.size {
                Some(_) => b.offset as i32,
                None => 0,
            },
            _ => b.size.map_or(0, |s| s as i32),
        }
    }

    /// `glGetClipPlane` (compatibility): the eye-space equation of `plane`;
    /// `GL_INVALID_ENUM` for a plane that is not `GL_CLIP_PLANE0 + i`.
    pub fn get_clip_plane(&mut self, plane: u32) -> [f64; 4] {
        match plane
            .checked_sub(gl::CLIP_PLANE0)
            .and_then(|i| self.fixed.clip_plane_eqs.get(i as usize))
        {
            Some(eq) => *eq,
            None => {
                self.record(GlError::InvalidEnum);
                [0.0; 4]
            }
        }
    }
}
