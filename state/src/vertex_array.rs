//! Vertex array objects: per-attribute array state (`glVertexAttribPointer` and its
//! integer form, enables, divisors), the element buffer binding, the default VAO of
//! the compatibility profile, and the current generic attribute values.

use crate::error::{CreateError, GlError};
use crate::gl;
use crate::limits;
use crate::names::{Buffer, VertexArray};
use crate::Context;
use rgl_nir::ir::names::{
    VERT_ATTRIB_COLOR0, VERT_ATTRIB_COLOR1, VERT_ATTRIB_FOG, VERT_ATTRIB_GENERIC0,
    VERT_ATTRIB_NORMAL, VERT_ATTRIB_POS, VERT_ATTRIB_TEX0,
};

/// How the shader sees an attribute's components.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum AttribKind {
    /// `glVertexAttribPointer`: converted to float (normalized or not).
    #[default]
    Float,
    /// `glVertexAttribIPointer`: integers kept as integers.
    Integer,
}

/// One attribute array.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct AttribArray {
    /// `glEnableVertexAttribArray`.
    pub enabled: bool,
    /// Component count 1–4.
    pub size: u8,
    /// Component type (`GL_FLOAT`, `GL_UNSIGNED_BYTE`, ...).
    pub data_type: u32,
    /// Fixed-point normalisation.
    pub normalized: bool,
    /// Float or integer attribute.
    pub kind: AttribKind,
    /// Byte stride (0 = tightly packed, resolved at draw).
    pub stride: u32,
    /// Byte offset into the buffer.
    pub offset: u32,
    /// Source buffer (captured from `GL_ARRAY_BUFFER` at pointer time).
    pub buffer: Option<Buffer>,
    /// Instance divisor.
    pub divisor: u32,
}

impl Default for AttribArray {
    fn default() -> Self {
        AttribArray {
            enabled: false,
            size: 4,
            data_type: gl::FLOAT,
            normalized: false,
            kind: AttribKind::Float,
            stride: 0,
            offset: 0,
            buffer: None,
            divisor: 0,
        }
    }
}

/// A vertex array object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VertexArrayObject {
    /// Attribute arrays.
    pub attribs: [AttribArray; limits::MAX_VERTEX_ATTRIBS as usize],
    /// `GL_ELEMENT_ARRAY_BUFFER` binding.
    pub element_buffer: Option<Buffer>,
    /// Compatibility arrays (`glVertexPointer`, `glColorPointer`, ...), indexed by
    /// `VERT_ATTRIB_*` below `VERT_ATTRIB_GENERIC0`.
    pub legacy: [AttribArray; LEGACY_ATTRIBS],
}

/// Number of fixed-function attribute slots (`VERT_ATTRIB_POS` .. `VERT_ATTRIB_GENERIC0`).
pub const LEGACY_ATTRIBS: usize = VERT_ATTRIB_GENERIC0 as usize;

impl Default for VertexArrayObject {
    fn default() -> Self {
        VertexArrayObject {
            attribs: [AttribArray::default(); limits::MAX_VERTEX_ATTRIBS as usize],
            element_buffer: None,
            legacy: [AttribArray::default(); LEGACY_ATTRIBS],
        }
    }
}

/// Bytes per component of an attribute type; None for unknown types.
pub fn type_size(data_type: u32) -> Option<u32> {
    Some(match data_type {
        gl::BYTE | gl::UNSIGNED_BYTE => 1,
        gl::SHORT | gl::UNSIGNED_SHORT | gl::HALF_FLOAT => 2,
        gl::INT | gl::UNSIGNED_INT | gl::FLOAT => 4,
        gl::DOUBLE => 8,
        gl::INT_2_10_10_10_REV | gl::UNSIGNED_INT_2_10_10_10_REV => 4,
        _ => return None,
    })
}

impl Context {
    /// The bound VAO (the default one when none is bound).
    pub(crate) fn vao_mut(&mut self) -> &mut VertexArrayObject {
        match self.bound_vao {
            Some(v) => match self.vertex_arrays.get_mut(v.name()) {
                Some(vao) => vao,
                None => &mut self.default_vao,
            },
            None => &mut self.default_vao,
        }
    }

    /// The bound VAO, read-only.
    pub(crate) fn vao(&self) -> &VertexArrayObject {
        self.bound_vao
            .and_then(|v| self.vertex_arrays.get(v.name()))
            .unwrap_or(&self.default_vao)
    }

    /// `glGenVertexArrays` (one).
    pub fn create_vertex_array(&mut self) -> Result<VertexArray, CreateError> {
        match self.vertex_arrays.insert(VertexArrayObject::default()) {
            Some(n) => Ok(VertexArray(n)),
            None => {
                self.record(GlError::OutOfMemory);
                Err(CreateError::OutOfNames("vertex array"))
            }
        }
    }

    /// `glBindVertexArray`; `None` binds the default VAO.
    pub fn bind_vertex_array(&mut self, vao: Option<VertexArray>) {
        if let Some(v) = vao {
            if !self.vertex_arrays.contains(v.name()) {
                return self.record(GlError::InvalidOperation);
            }
        }
        self.bound_vao = vao;
    }

    /// `glDeleteVertexArrays` (one); the default VAO becomes bound if it was bound.
    pub fn delete_vertex_array(&mut self, vao: VertexArray) {
        if self.vertex_arrays.remove(vao.name()).is_some() && self.bound_vao == Some(vao) {
            self.bound_vao = None;
        }
    }

    /// `glIsVertexArray`.
    pub fn is_vertex_array(&self, vao: VertexArray) -> bool {
        self.vertex_arrays.contains(vao.name())
    }

    fn attrib_pointer(
        &mut self,
        index: u32,
        size: i32,
        data_type: u32,
        normalized: bool,
        kind: AttribKind,
        stride: i32,
        offset: i32,
    ) {
        if index >= limits::MAX_VERTEX_ATTRIBS {
            return self.record(GlError::InvalidValue);
        }
        self.array_pointer(
            ArraySlot::Generic(index as usize),
            size,
            data_type,
            normalized,
            kind,
            stride,
            offset,
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn array_pointer(
        &mut self,
        slot: ArraySlot,
        size: i32,
        data_type: u32,
        normalized: bool,
        kind: AttribKind,
        stride: i32,
        offset: i32,
    ) {
        if !(1..=4).contains(&size) || stride < 0 {
            return self.record(GlError::InvalidValue);
        }
        if offset < 0 {
            return self.record(GlError::InvalidValue);
        }
        let valid_type = match kind {
            AttribKind::Float => type_size(data_type).is_some(),
            AttribKind::Integer => matches!(
                data_type,
                gl::BYTE
                    | gl::UNSIGNED_BYTE
                    | gl::SHORT
                    | gl::UNSIGNED_SHORT
                    | gl::INT
                    | gl::UNSIGNED_INT
            ),
        };
        if !valid_type {
            return self.record(GlError::InvalidEnum);
        }
        if matches!(
            data_type,
            gl::INT_2_10_10_10_REV | gl::UNSIGNED_INT_2_10_10_10_REV
        ) && size != 4
        {
            return self.record(GlError::InvalidOperation);
        }
        let buffer = self.buffer_bindings.array;
        // GL 3.3 §2.10: with a non-zero VAO bound and no ARRAY_BUFFER, a
        // non-null pointer is GL_INVALID_OPERATION; a null one records the array
        // without a buffer (a draw that reads it fails). The default VAO's client
        // arrays (compatibility profile) are not supported: without a buffer it
        // takes only the null pointer, and any other pointer is the same error.
        if buffer.is_none() && offset != 0 {
            return self.record(GlError::InvalidOperation);
        }
        let vao = self.vao_mut();
        let a = match slot {
            ArraySlot::Generic(i) => &mut vao.attribs[i],
            ArraySlot::Legacy(i) => &mut vao.legacy[i],
        };
        a.size = size as u8;
        a.data_type = data_type;
        a.normalized = normalized;
        a.kind = kind;
        a.stride = stride as u32;
        a.offset = offset as u32;
        a.buffer = buffer;
    }

    /// `glVertexAttribPointer` with a buffer offset.
    pub fn vertex_attrib_pointer_f32(
        &mut self,
        index: u32,
        size: i32,
        data_type: u32,
        normalized: bool,
        stride: i32,
        offset: i32,
    ) {
        self.attrib_pointer(
            index,
            size,
            data_type,
            normalized,
            AttribKind::Float,
            stride,
            offset,
        );
    }

    /// `glVertexAttribIPointer` with a buffer offset.
    pub fn vertex_attrib_pointer_i32(
        &mut self,
        index: u32,
        size: i32,
        data_type: u32,
        stride: i32,
        offset: i32,
    ) {
        self.attrib_pointer(
            index,
            size,
            data_type,
            false,
            AttribKind::Integer,
            stride,
            offset,
        );
    }

    /// `glEnableVertexAttribArray`.
    pub fn enable_vertex_attrib_array(&mut self, index: u32) {
        self.set_attrib_enabled(index, true);
    }

    /// `glDisableVertexAttribArray`.
    pub fn disable_vertex_attrib_array(&mut self, index: u32) {
        self.set_attrib_enabled(index, false);
    }

    fn set_attrib_enabled(&mut self, index: u32, on: bool) {
        if index >= limits::MAX_VERTEX_ATTRIBS {
            return self.record(GlError::InvalidValue);
        }
        self.vao_mut().attribs[index as usize].enabled = on;
    }

    /// `glVertexAttribDivisor`.
    pub fn vertex_attrib_divisor(&mut self, index: u32, divisor: u32) {
        if index >= limits::MAX_VERTEX_ATTRIBS {
            return self.record(GlError::InvalidValue);
        }
        self.vao_mut().attribs[index as usize].divisor = divisor;
    }

    /// `glVertexAttrib4f`: the value of a generic attribute whose array is disabled.
    pub fn vertex_attrib_4_f32(&mut self, index: u32, x: f32, y: f32, z: f32, w: f32) {
        self.set_current_attrib(index, [x, y, z, w].map(f32::to_bits));
    }

    /// `glVertexAttribI4i`.
    pub fn vertex_attrib_4_i32(&mut self, index: u32, x: i32, y: i32, z: i32, w: i32) {
        self.set_current_attrib(index, [x, y, z, w].map(|v| v as u32));
    }

    /// `glVertexAttribI4ui`.
    pub fn vertex_attrib_4_u32(&mut self, index: u32, x: u32, y: u32, z: u32, w: u32) {
        self.set_current_attrib(index, [x, y, z, w]);
    }

    fn set_current_attrib(&mut self, index: u32, words: [u32; 4]) {
        match self.current_attribs.get_mut(index as usize) {
            Some(slot) => *slot = words,
            None => self.record(GlError::InvalidValue),
        }
    }

    /// `glVertexPointer` (compatibility): the `gl_Vertex` array.
    pub fn vertex_pointer(&mut self, size: i32, data_type: u32, stride: i32, offset: i32) {
        if !(2..=4).contains(&size) {
            return self.record(GlError::InvalidValue);
        }
        if !matches!(
            data_type,
            gl::SHORT | gl::INT | gl::FLOAT | gl::DOUBLE | gl::HALF_FLOAT
        ) {
            return self.record(GlError::InvalidEnum);
        }
        let slot = ArraySlot::Legacy(VERT_ATTRIB_POS as usize);
        self.array_pointer(
            slot,
            size,
            data_type,
            false,
            AttribKind::Float,
            stride,
            offset,
        );
    }

    /// `glNormalPointer` (compatibility): the `gl_Normal` array (3 components,
    /// integer types normalized).
    pub fn normal_pointer(&mut self, data_type: u32, stride: i32, offset: i32) {
        if !matches!(
            data_type,
            gl::BYTE | gl::SHORT | gl::INT | gl::FLOAT | gl::DOUBLE | gl::HALF_FLOAT
        ) {
            return self.record(GlError::InvalidEnum);
        }
        let normalized = !matches!(data_type, gl::FLOAT | gl::DOUBLE | gl::HALF_FLOAT);
        let slot = ArraySlot::Legacy(VERT_ATTRIB_NORMAL as usize);
        self.array_pointer(
            slot,
            3,
            data_type,
            normalized,
            AttribKind::Float,
            stride,
            offset,
        );
    }

    /// `glColorPointer` (compatibility): the `gl_Color` array (integer types
    /// normalized).
    pub fn color_pointer(&mut self, size: i32, data_type: u32, stride: i32, offset: i32) {
        self.color_array(VERT_ATTRIB_COLOR0 as usize, size, data_type, stride, offset);
    }

    /// `glSecondaryColorPointer` (compatibility): `gl_SecondaryColor` (size 3).
    pub fn secondary_color_pointer(&mut self, size: i32, data_type: u32, stride: i32, offset: i32) {
        if size != 3 {
            return self.record(GlError::InvalidValue);
        }
        self.color_array(VERT_ATTRIB_COLOR1 as usize, size, data_type, stride, offset);
    }

    fn color_array(&mut self, slot: usize, size: i32, data_type: u32, stride: i32, offset: i32) {
        if !(3..=4).contains(&size) {
            return self.record(GlError::InvalidValue);
        }
        if type_size(data_type).is_none() || data_type == gl::INT_2_10_10_10_REV {
            return self.record(GlError::InvalidEnum);
        }
        let normalized = !matches!(data_type, gl::FLOAT | gl::DOUBLE | gl::HALF_FLOAT);
        let slot = ArraySlot::Legacy(slot);
        self.array_pointer(
            slot,
            size,
            data_type,
            normalized,
            AttribKind::Float,
            stride,
            offset,
        );
    }

    /// `glTexCoordPointer` (compatibility): the `gl_MultiTexCoord<n>` array of the
    /// client active texture unit.
    pub fn tex_coord_pointer(&mut self, size: i32, data_type: u32, stride: i32, offset: i32) {
        if !matches!(
            data_type,
            gl::SHORT | gl::INT | gl::FLOAT | gl::DOUBLE | gl::HALF_FLOAT
        ) {
            return self.record(GlError::InvalidEnum);
        }
        let slot =
            ArraySlot::Legacy(VERT_ATTRIB_TEX0 as usize + self.client_active_texture as usize);
        self.array_pointer(
            slot,
            size,
            data_type,
            false,
            AttribKind::Float,
            stride,
            offset,
        );
    }

    /// `glClientActiveTexture` (compatibility).
    pub fn client_active_texture(&mut self, texture: u32) {
        match texture.checked_sub(gl::TEXTURE0) {
            Some(u) if (u as usize) < crate::matrices::TEXTURE_COORDS => {
                self.client_active_texture = u
            }
            _ => self.record(GlError::InvalidEnum),
        }
    }

    /// `glEnableClientState` (compatibility).
    pub fn enable_client_state(&mut self, array: u32) {
        self.set_client_state(array, true);
    }

    /// `glDisableClientState` (compatibility).
    pub fn disable_client_state(&mut self, array: u32) {
        self.set_client_state(array, false);
    }

    fn set_client_state(&mut self, array: u32, on: bool) {
        let slot = match array {
            gl::VERTEX_ARRAY => VERT_ATTRIB_POS as usize,
            gl::NORMAL_ARRAY => VERT_ATTRIB_NORMAL as usize,
            gl::COLOR_ARRAY => VERT_ATTRIB_COLOR0 as usize,
            gl::SECONDARY_COLOR_ARRAY => VERT_ATTRIB_COLOR1 as usize,
            gl::FOG_COORD_ARRAY => VERT_ATTRIB_FOG as usize,
            gl::TEXTURE_COORD_ARRAY => {
                VERT_ATTRIB_TEX0 as usize + self.client_active_texture as usize
            }
            _ => return self.record(GlError::InvalidEnum),
        };
        self.vao_mut().legacy[slot].enabled = on;
    }
}

/// Which array a pointer call sets.
#[derive(Copy, Clone, Debug)]
enum ArraySlot {
    /// Generic attribute `n`.
    Generic(usize),
    /// Fixed-function attribute `VERT_ATTRIB_*`.
    Legacy(usize),
}
