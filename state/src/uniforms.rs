//! Uniforms of the default block and uniform blocks: locations, the `glUniform*`
//! setters with GL's type rules, read-back, the active-uniform queries and block
//! bindings.
//!
//! Storage follows rgl-link's convention (see `rgl_link::program`): an array of
//! vec4 slots of 32-bit words, one slot per vector or matrix column, arrays one
//! element per slot; samplers hold their texture unit in a separate table indexed by
//! the program-wide sampler index.

use rgl_glsl::hir::{Constant, ScalarValue};
use rgl_glsl::types::{SamplerDim, ScalarKind, Type};
use rgl_link::program::ActiveUniform;
use rgl_link::LinkedProgram;

use crate::error::{GlError, GlResult};
use crate::gl;
use crate::names::{Program, UniformLocation};
use crate::Context;

/// Default-block values and sampler units of one linked program.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UniformStorage {
    /// vec4 slots of raw 32-bit words.
    pub slots: Vec<[u32; 4]>,
    /// Texture unit of every sampler index.
    pub sampler_units: Vec<u32>,
    /// Image unit of every image index (GL 4.2 §8.26).
    pub image_units: Vec<u32>,
    /// Location → (active uniform index, array element).
    pub locations: Vec<(u32, u32)>,
    /// Bumped by every change, so a draw can tell whether to re-upload.
    pub serial: u64,
}

/// What kind of values a `glUniform*` call passes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// `glUniform*f` / `glUniformMatrix*`.
    Float,
    /// `glUniform*i`.
    Int,
    /// `glUniform*ui`.
    Uint,
}

fn scalar_bits(v: ScalarValue) -> u32 {
    match v {
        ScalarValue::Float(f) => f.to_bits(),
        ScalarValue::Int(i) => i as u32,
        ScalarValue::Uint(u) => u,
        ScalarValue::Bool(b) => b as u32,
    }
}

/// Rows of one column (vector size) and columns of one element.
fn shape(ty: &Type) -> (u8, u8) {
    match ty {
        Type::Matrix { columns, rows } => (*rows, *columns),
        other => (other.vector_elements().max(1), 1),
    }
}

fn flatten(c: &Constant, out: &mut Vec<u32>) {
    match c {
        Constant::Components(v) => out.extend(v.iter().map(|s| scalar_bits(*s))),
        Constant::Aggregate(items) => items.iter().for_each(|i| flatten(i, out)),
    }
}

impl UniformStorage {
    /// Fresh storage for `program`: zeros, then the shaders' initializers.
    pub fn new(program: &LinkedProgram) -> UniformStorage {
        let mut s = UniformStorage {
            slots: vec![[0; 4]; program.uniform_slots as usize],
            sampler_units: vec![0; program.num_samplers as usize],
            image_units: vec![0; program.num_images() as usize],
            locations: Vec::new(),
            serial: 0,
        };
        for (index, u) in program.uniforms.iter().enumerate() {
            if u.location >= 0 {
                let first = u.location as usize;
                let needed = first + u.array_size.max(1) as usize;
                if s.locations.len() < needed {
                    s.locations.resize(needed, (u32::MAX, 0));
                }
                for e in 0..u.array_size.max(1) {
                    s.locations[first + e as usize] = (index as u32, e);
                }
            }
            if let (Some(init), None) = (&u.initializer, u.block) {
                let mut words = Vec::new();
                flatten(init, &mut words);
                let (rows, cols) = shape(&u.ty);
                let per_element = rows as usize * cols as usize;
                for (e, element) in words.chunks(per_element.max(1)).enumerate() {
                    if u.ty.is_sampler() || u.ty.is_image() {
                        let units = if u.ty.is_image() {
                            &mut s.image_units
                        } else {
                            &mut s.sampler_units
                        };
                        if let Some(base) = u.sampler_index {
                            if let Some(unit) = units.get_mut(base as usize + e) {
                                *unit = element[0];
                            }
                        }
                        continue;
                    }
                    for c in 0..cols as usize {
                        let slot = u.slot as usize + e * cols as usize + c;
                        if let Some(dst) = s.slots.get_mut(slot) {
                            for r in 0..rows as usize {
                                dst[r] = element.get(c * rows as usize + r).copied().unwrap_or(0);
                            }
                        }
                    }
                }
            }
        }
        s
    }
}

/// The GL type enum of a uniform's element type (`GL_FLOAT_VEC3`, `GL_SAMPLER_2D`).
pub fn gl_type(ty: &Type) -> u32 {
    match ty {
        Type::Scalar(k) | Type::Vector(k, _) => {
            let n = ty.vector_elements().max(1) as usize;
            let table: [u32; 4] = match k {
                ScalarKind::Float => [gl::FLOAT, gl::FLOAT_VEC2, gl::FLOAT_VEC3, gl::FLOAT_VEC4],
                ScalarKind::Int => [gl::INT, gl::INT_VEC2, gl::INT_VEC3, gl::INT_VEC4],
                ScalarKind::Uint => [
                    gl::UNSIGNED_INT,
                    gl::UNSIGNED_INT_VEC2,
                    gl::UNSIGNED_INT_VEC3,
                    gl::UNSIGNED_INT_VEC4,
                ],
                ScalarKind::Bool => [gl::BOOL, gl::BOOL_VEC2, gl::BOOL_VEC3, gl::BOOL_VEC4],
            };
            table[(n - 1).min(3)]
        }
        Type::Matrix { columns, rows } => match (columns, rows) {
            (2, 2) => gl::FLOAT_MAT2,
            (3, 3) => gl::FLOAT_MAT3,
            (4, 4) => gl::FLOAT_MAT4,
            (2, 3) => gl::FLOAT_MAT2x3,
            (2, 4) => gl::FLOAT_MAT2x4,
            (3, 2) => gl::FLOAT_MAT3x2,
            (3, 4) => gl::FLOAT_MAT3x4,
            (4, 2) => gl::FLOAT_MAT4x2,
            _ => gl::FLOAT_MAT4x3,
        },
        Type::Sampler(s) => {
            use SamplerDim::*;
            let by_kind = |f: u32, i: u32, u: u32| match s.kind {
                ScalarKind::Int => i,
                ScalarKind::Uint => u,
                _ => f,
            };
            match (s.dim, s.arrayed, s.shadow) {
                (D1, false, false) => by_kind(
                    gl::SAMPLER_1D,
                    gl::INT_SAMPLER_1D,
                    gl::UNSIGNED_INT_SAMPLER_1D,
                ),
                (D1, true, false) => by_kind(
                    gl::SAMPLER_1D_ARRAY,
                    gl::INT_SAMPLER_1D_ARRAY,
                    gl::UNSIGNED_INT_SAMPLER_1D_ARRAY,
                ),
                (D1, false, true) => gl::SAMPLER_1D_SHADOW,
                (D1, true, true) => gl::SAMPLER_1D_ARRAY_SHADOW,
                (D2, false, false) => by_kind(
                    gl::SAMPLER_2D,
                    gl::INT_SAMPLER_2D,
                    gl::UNSIGNED_INT_SAMPLER_2D,
                ),
                (D2, true, false) => by_kind(
                    gl::SAMPLER_2D_ARRAY,
                    gl::INT_SAMPLER_2D_ARRAY,
                    gl::UNSIGNED_INT_SAMPLER_2D_ARRAY,
                ),
                (D2, false, true) => gl::SAMPLER_2D_SHADOW,
                (D2, true, true) => gl::SAMPLER_2D_ARRAY_SHADOW,
                (D3, ..) => by_kind(
                    gl::SAMPLER_3D,
                    gl::INT_SAMPLER_3D,
                    gl::UNSIGNED_INT_SAMPLER_3D,
                ),
                (Cube, _, false) => by_kind(
                    gl::SAMPLER_CUBE,
                    gl::INT_SAMPLER_CUBE,
                    gl::UNSIGNED_INT_SAMPLER_CUBE,
                ),
                (Cube, _, true) => gl::SAMPLER_CUBE_SHADOW,
                (Rect, _, false) => by_kind(
                    gl::SAMPLER_2D_RECT,
                    gl::INT_SAMPLER_2D_RECT,
                    gl::UNSIGNED_INT_SAMPLER_2D_RECT,
                ),
                (Rect, _, true) => gl::SAMPLER_2D_RECT_SHADOW,
                (Buffer, ..) => by_kind(
                    gl::SAMPLER_BUFFER,
                    gl::INT_SAMPLER_BUFFER,
                    gl::UNSIGNED_INT_SAMPLER_BUFFER,
                ),
                (Ms, false, _) => by_kind(
                    gl::SAMPLER_2D_MULTISAMPLE,
                    gl::INT_SAMPLER_2D_MULTISAMPLE,
                    gl::UNSIGNED_INT_SAMPLER_2D_MULTISAMPLE,
                ),
                (Ms, true, _) => by_kind(
                    gl::SAMPLER_2D_MULTISAMPLE_ARRAY,
                    gl::INT_SAMPLER_2D_MULTISAMPLE_ARRAY,
                    gl::UNSIGNED_INT_SAMPLER_2D_MULTISAMPLE_ARRAY,
                ),
                (External, ..) => gl::SAMPLER_2D,
            }
        }
        _ => gl::NONE,
    }
}

/// Splits `name[3]` into (`name`, Some(3)); `name` alone into (`name`, None).
fn split_subscript(name: &str) -> Option<(&str, Option<u32>)> {
    match name.strip_suffix(']') {
        Some(head) => {
            let open = head.rfind('[')?;
            let index = head[open + 1..].trim().parse().ok()?;
            Some((&head[..open], Some(index)))
        }
        None => Some((name, None)),
    }
}

/// The element-0 location plus element of `name` among the active uniforms.
fn find_location(uniforms: &[ActiveUniform], name: &str) -> Option<u32> {
    let (base, element) = split_subscript(name)?;
    uniforms.iter().find_map(|u| {
        if u.location < 0 {
            return None;
        }
        let listed = u.name.strip_suffix("[0]").unwrap_or(&u.name);
        let element = element.unwrap_or(0);
        let is_array = u.name.ends_with("[0]");
        if listed == base && (element < u.array_size.max(1)) && (is_array || element == 0) {
            Some(u.location as u32 + element)
        } else if listed == name {
            // `u[1]` names the innermost array `u[1][0]` of an array of arrays.
            Some(u.location as u32)
        } else {
            None
        }
    })
}

impl Context {
    /// `glGetUniformLocation`: `None` for names that are not active default-block
    /// uniforms (GL's -1).
    pub fn get_uniform_location(
        &mut self,
        program: Program,
        name: &str,
    ) -> Option<UniformLocation> {
        self.finish_program(program);
        let r = self.program_obj(program).and_then(|p| {
            let linked = p.link_result().ok_or(GlError::InvalidOperation)?;
            Ok(find_location(&linked.uniforms, name).map(UniformLocation))
        });
        self.check(r).flatten()
    }

    /// The uniform and element at `location` of the current program.
    fn uniform_at(&self, location: UniformLocation) -> GlResult<(usize, u32)> {
        let (_, obj, _) = self.current_linked().ok_or(GlError::InvalidOperation)?;
        obj.uniforms
            .locations
            .get(location.0 as usize)
            .filter(|(i, _)| *i != u32::MAX)
            .map(|(i, e)| (*i as usize, *e))
            .ok_or(GlError::InvalidOperation)
    }

    /// The common path of every `glUniform*` call: `values` are raw words of
    /// `count` elements of `rows` × `cols` components (column-major unless
    /// `transpose`).
    fn set_uniform(
        &mut self,
        location: Option<&UniformLocation>,
        kind: ValueKind,
        rows: u8,
        cols: u8,
        transpose: bool,
        values: &[u32],
    ) {
        self.finish_current_program();
        let r = self.set_uniform_inner(location, kind, rows, cols, transpose, values);
        self.check(r);
    }

    fn set_uniform_inner(
        &mut self,
        location: Option<&UniformLocation>,
        kind: ValueKind,
        rows: u8,
        cols: u8,
        transpose: bool,
        values: &[u32],
    ) -> GlResult<()> {
        let Some(location) = location else {
            // Location -1 is silently ignored, but only with a program in use.
            return match self.current_program {
                Some(_) => Ok(()),
                None => Err(GlError::InvalidOperation),
            };
        };
        let per = rows as usize * cols as usize;
        if per == 0 || !values.len().is_multiple_of(per) {
            return Err(GlError::InvalidValue);
        }
        let count = values.len() / per;
        let (index, element) = self.uniform_at(*location)?;
        let program = self.current_program.ok_or(GlError::InvalidOperation)?;
        let obj = self.program_obj_mut(program)?;
        let linked = obj.link_result().ok_or(GlError::InvalidOperation)?;
        let u = linked
            .uniforms
            .get(index)
            .ok_or(GlError::InvalidOperation)?;
        let (urows, ucols) = shape(&u.ty);
        let opaque = u.ty.is_sampler() || u.ty.is_image();
        let base_kind = if opaque {
            ScalarKind::Int
        } else {
            u.ty.scalar_kind().ok_or(GlError::InvalidOperation)?
        };
        let type_ok = match kind {
            ValueKind::Float => matches!(base_kind, ScalarKind::Float | ScalarKind::Bool),
            ValueKind::Int => matches!(base_kind, ScalarKind::Int | ScalarKind::Bool),
            ValueKind::Uint => matches!(base_kind, ScalarKind::Uint | ScalarKind::Bool),
        };
        let matrix_call = cols > 1 || (kind == ValueKind::Float && transpose);
        if !type_ok
            || urows != rows
            || ucols != cols
            || (matrix_call != u.ty.is_matrix() && cols > 1)
            || (opaque && (kind != ValueKind::Int || per != 1))
        {
            return Err(GlError::InvalidOperation);
        }
        if count > 1 && u.array_size <= 1 {
            return Err(GlError::InvalidOperation);
        }
        let available = u.array_size.max(1).saturating_sub(element) as usize;
        let count = count.min(available);
        if opaque {
            // GL 4.2 §7.6: a sampler takes a texture unit, an image an image
            // unit (§8.26); a value past the last is GL_INVALID_VALUE.
            let limit = if u.ty.is_image() {
                crate::image_units::MAX_IMAGE_UNITS
            } else {
                crate::limits::MAX_COMBINED_TEXTURE_IMAGE_UNITS
            };
            if values[..count].iter().any(|v| *v >= limit) {
                return Err(GlError::InvalidValue);
            }
            let base = u.sampler_index.ok_or(GlError::InvalidOperation)? as usize;
            let units = if u.ty.is_image() {
                &mut obj.uniforms.image_units
            } else {
                &mut obj.uniforms.sampler_units
            };
            for (e, v) in values[..count].iter().enumerate() {
                if let Some(unit) = units.get_mut(base + element as usize + e) {
                    *unit = *v;
                }
            }
            obj.uniforms.serial += 1;
            return Ok(());
        }
        let to_bool = |v: u32| -> u32 {
            match kind {
                ValueKind::Float => (f32::from_bits(v) != 0.0) as u32,
                _ => (v != 0) as u32,
            }
        };
        let first_slot = u.slot as usize + element as usize * cols as usize;
        for e in 0..count {
            let src = &values[e * per..(e + 1) * per];
            for c in 0..cols as usize {
                let Some(dst) = obj
                    .uniforms
                    .slots
                    .get_mut(first_slot + e * cols as usize + c)
                else {
                    return Err(GlError::InvalidOperation);
                };
                for r in 0..rows as usize {
                    let v = if transpose {
                        src[r * cols as usize + c]
                    } else {
                        src[c * rows as usize + r]
                    };
                    dst[r] = if base_kind == ScalarKind::Bool {
                        to_bool(v)
                    } else {
                        v
                    };
                }
            }
        }
        obj.uniforms.serial += 1;
        Ok(())
    }

    /// `glUniform1f`.
    pub fn uniform_1_f32(&mut self, location: Option<&UniformLocation>, x: f32) {
        self.set_uniform(location, ValueKind::Float, 1, 1, false, &[x.to_bits()]);
    }
    /// `glUniform2f`.
    pub fn uniform_2_f32(&mut self, location: Option<&UniformLocation>, x: f32, y: f32) {
        self.uniform_2_f32_slice(location, &[x, y]);
    }
    /// `glUniform3f`.
    pub fn uniform_3_f32(&mut self, location: Option<&UniformLocation>, x: f32, y: f32, z: f32) {
        self.uniform_3_f32_slice(location, &[x, y, z]);
    }
    /// `glUniform4f`.
    pub fn uniform_4_f32(
        &mut self,
        location: Option<&UniformLocation>,
        x: f32,
        y: f32,
        z: f32,
        w: f32,
    ) {
        self.uniform_4_f32_slice(location, &[x, y, z, w]);
    }
    /// `glUniform1i`.
    pub fn uniform_1_i32(&mut self, location: Option<&UniformLocation>, x: i32) {
        self.uniform_1_i32_slice(location, &[x]);
    }
    /// `glUniform2i`.
    pub fn uniform_2_i32(&mut self, location: Option<&UniformLocation>, x: i32, y: i32) {
        self.uniform_2_i32_slice(location, &[x, y]);
    }
    /// `glUniform3i`.
    pub fn uniform_3_i32(&mut self, location: Option<&UniformLocation>, x: i32, y: i32, z: i32) {
        self.uniform_3_i32_slice(location, &[x, y, z]);
    }
    /// `glUniform4i`.
    pub fn uniform_4_i32(
        &mut self,
        location: Option<&UniformLocation>,
        x: i32,
        y: i32,
        z: i32,
        w: i32,
    ) {
        self.uniform_4_i32_slice(location, &[x, y, z, w]);
    }
    /// `glUniform1ui`.
    pub fn uniform_1_u32(&mut self, location: Option<&UniformLocation>, x: u32) {
        self.uniform_1_u32_slice(location, &[x]);
    }
    /// `glUniform4ui`.
    pub fn uniform_4_u32(
        &mut self,
        location: Option<&UniformLocation>,
        x: u32,
        y: u32,
        z: u32,
        w: u32,
    ) {
        self.uniform_4_u32_slice(location, &[x, y, z, w]);
    }
}

macro_rules! slice_setters {
    ($($(#[$doc:meta])* $name:ident: $ty:ty, $kind:ident, $n:literal;)*) => {
        impl Context {
            $(
                $(#[$doc])*
                pub fn $name(&mut self, location: Option<&UniformLocation>, v: &[$ty]) {
                    let words: Vec<u32> = v.iter().map(|x| slice_setters!(@bits x, $kind)).collect();
                    self.set_uniform(location, ValueKind::$kind, $n, 1, false, &words);
                }
            )*
        }
    };
    (@bits $x:ident, Float) => { $x.to_bits() };
    (@bits $x:ident, Int) => { *$x as u32 };
    (@bits $x:ident, Uint) => { *$x };
}

slice_setters! {
    /// `glUniform1fv`.
    uniform_1_f32_slice: f32, Float, 1;
    /// `glUniform2fv`.
    uniform_2_f32_slice: f32, Float, 2;
    /// `glUniform3fv`.
    uniform_3_f32_slice: f32, Float, 3;
    /// `glUniform4fv`.
    uniform_4_f32_slice: f32, Float, 4;
    /// `glUniform1iv`.
    uniform_1_i32_slice: i32, Int, 1;
    /// `glUniform2iv`.
    uniform_2_i32_slice: i32, Int, 2;
    /// `glUniform3iv`.
    uniform_3_i32_slice: i32, Int, 3;
    /// `glUniform4iv`.
    uniform_4_i32_slice: i32, Int, 4;
    /// `glUniform1uiv`.
    uniform_1_u32_slice: u32, Uint, 1;
    /// `glUniform2uiv`.
    uniform_2_u32_slice: u32, Uint, 2;
    /// `glUniform3uiv`.
    uniform_3_u32_slice: u32, Uint, 3;
    /// `glUniform4uiv`.
    uniform_4_u32_slice: u32, Uint, 4;
}

macro_rules! matrix_setters {
    ($($(#[$doc:meta])* $name:ident: $cols:literal x $rows:literal;)*) => {
        impl Context {
            $(
                $(#[$doc])*
                pub fn $name(&mut self, location: Option<&UniformLocation>, transpose: bool, v: &[f32]) {
                    let words: Vec<u32> = v.iter().map(|x| x.to_bits()).collect();
                    self.set_uniform(location, ValueKind::Float, $rows, $cols, transpose, &words);
                }
            )*
        }
    };
}

matrix_setters! {
    /// `glUniformMatrix2fv`.
    uniform_matrix_2_f32_slice: 2 x 2;
    /// `glUniformMatrix3fv`.
    uniform_matrix_3_f32_slice: 3 x 3;
    /// `glUniformMatrix4fv`.
    uniform_matrix_4_f32_slice: 4 x 4;
    /// `glUniformMatrix2x3fv`.
    uniform_matrix_2x3_f32_slice: 2 x 3;
    /// `glUniformMatrix2x4fv`.
    uniform_matrix_2x4_f32_slice: 2 x 4;
    /// `glUniformMatrix3x2fv`.
    uniform_matrix_3x2_f32_slice: 3 x 2;
    /// `glUniformMatrix3x4fv`.
    uniform_matrix_3x4_f32_slice: 3 x 4;
    /// `glUniformMatrix4x2fv`.
    uniform_matrix_4x2_f32_slice: 4 x 2;
    /// `glUniformMatrix4x3fv`.
    uniform_matrix_4x3_f32_slice: 4 x 3;
}

/// `glGetActiveUniform`'s answer (the shape of `glow::ActiveUniform`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActiveUniformInfo {
    /// Element count.
    pub size: i32,
    /// GL type enum.
    pub utype: u32,
    /// GL name.
    pub name: String,
}

impl Context {
    /// The link result of `program`. A program without one has no active
    /// uniforms or blocks, so every index into them is out of range:
    /// `GL_INVALID_VALUE` (GL 3.3 §2.11.4, `GetActiveUniform`,
    /// `GetActiveUniformsiv`, `GetActiveUniformBlockiv`, `UniformBlockBinding`).
    fn linked_of(&self, program: Program) -> GlResult<&LinkedProgram> {
        self.program_obj(program)?
            .link_result()
            .ok_or(GlError::InvalidValue)
    }

    /// `glGetActiveUniform`.
    pub fn get_active_uniform(
        &mut self,
        program: Program,
        index: u32,
    ) -> Option<ActiveUniformInfo> {
        self.finish_program(program);
        let r = self.linked_of(program).and_then(|l| {
            let u = l
                .uniforms
                .get(index as usize)
                .ok_or(GlError::InvalidValue)?;
            Ok(ActiveUniformInfo {
                size: u.array_size.max(1) as i32,
                utype: gl_type(&u.ty),
                name: u.name.clone(),
            })
        });
        self.check(r)
    }

    /// `glGetUniformfv` / `glGetUniformiv` as raw words of the whole element at
    /// `location` (column-major; bools as 0/1).
    pub fn get_uniform_words(&mut self, program: Program, location: &UniformLocation) -> Vec<u32> {
        self.finish_program(program);
        let r = self.program_obj(program).and_then(|p| {
            let l = p.link_result().ok_or(GlError::InvalidOperation)?;
            let (i, e) = p
                .uniforms
                .locations
                .get(location.0 as usize)
                .filter(|(i, _)| *i != u32::MAX)
                .copied()
                .ok_or(GlError::InvalidOperation)?;
            let u = &l.uniforms[i as usize];
            if u.ty.is_sampler() || u.ty.is_image() {
                let units = if u.ty.is_image() {
                    &p.uniforms.image_units
                } else {
                    &p.uniforms.sampler_units
                };
                let unit = u
                    .sampler_index
                    .and_then(|b| units.get((b + e) as usize))
                    .copied()
                    .unwrap_or(0);
                return Ok(vec![unit]);
            }
            let (rows, cols) = shape(&u.ty);
            let mut out = Vec::new();
            for c in 0..cols as u32 {
                let slot = (u.slot + e * cols as u32 + c) as usize;
                let words = p.uniforms.slots.get(slot).copied().unwrap_or_default();
                out.extend_from_slice(&words[..rows as usize]);
            }
            Ok(out)
        });
        self.check(r).unwrap_or_default()
    }

    /// `glGetUniformBlockIndex`: `None` is `GL_INVALID_INDEX`.
    pub fn get_uniform_block_index(&mut self, program: Program, name: &str) -> Option<u32> {
        self.finish_program(program);
        // GL 3.3 §2.11.4: a name that is no active block of the program gives
        // INVALID_INDEX; an unlinked program has none, and that is no error.
        let r = self.program_obj(program).map(|p| {
            p.link_result()?
                .uniform_blocks
                .iter()
                .position(|b| b.name == name)
                .map(|i| i as u32)
        });
        self.check(r).flatten()
    }

    /// `glUniformBlockBinding`.
    pub fn uniform_block_binding(&mut self, program: Program, index: u32, binding: u32) {
        let limit = crate::limits::MAX_UNIFORM_BUFFER_BINDINGS;
        self.set_block_binding(program, index, binding, limit, |p, i| {
            p.block_bindings.get_mut(i)
        });
    }

    /// The common part of `glUniformBlockBinding` and
    /// `glShaderStorageBlockBinding`: `binding` at or past `limit`, or an
    /// `index` that is no active block (GL 3.3 §2.11.4, GL 4.3 §7.8; an
    /// unlinked program has none), is `GL_INVALID_VALUE`. `slot` picks the
    /// binding of block `index` in the program object.
    pub(crate) fn set_block_binding(
        &mut self,
        program: Program,
        index: u32,
        binding: u32,
        limit: u32,
        slot: impl FnOnce(&mut crate::shader::ProgramObject, usize) -> Option<&mut u32>,
    ) {
        if binding >= limit {
            return self.record(GlError::InvalidValue);
        }
        self.finish_program(program);
        let r = self.program_obj_mut(program).and_then(|p| {
            if p.link_result().is_none() {
                return Err(GlError::InvalidValue);
            }
            *slot(p, index as usize).ok_or(GlError::InvalidValue)? = binding;
            Ok(())
        });
        self.check(r);
    }

    /// `glGetActiveUniformName` (GL 3.3 §2.11.4): the name `glGetActiveUniform`
    /// reports for `index`.
    pub fn get_active_uniform_name(&mut self, program: Program, index: u32) -> String {
        self.finish_program(program);
        let r = self.linked_of(program).and_then(|l| {
            l.uniforms
                .get(index as usize)
                .map(|u| u.name.clone())
                .ok_or(GlError::InvalidValue)
        });
        self.check(r).unwrap_or_default()
    }

    /// `glGetActiveUniformBlockName` (GL 3.3 §2.11.4).
    pub fn get_active_uniform_block_name(&mut self, program: Program, index: u32) -> String {
        self.finish_program(program);
        let r = self.linked_of(program).and_then(|l| {
            l.uniform_blocks
                .get(index as usize)
                .map(|b| b.name.clone())
                .ok_or(GlError::InvalidValue)
        });
        self.check(r).unwrap_or_default()
    }

    /// `glGetActiveUniformBlockiv(program, index,
    /// GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES)`: the active-uniform indices of
    /// the block's members (the one array-valued block property).
    pub fn get_active_uniform_block_uniform_indices(
        &mut self,
        program: Program,
        index: u32,
    ) -> Vec<u32> {
        self.finish_program(program);
        let r = self.linked_of(program).and_then(|l| {
            l.uniform_blocks
                .get(index as usize)
                .map(|b| b.members.clone())
                .ok_or(GlError::InvalidValue)
        });
        self.check(r).unwrap_or_default()
    }

    /// `glGetActiveUniformBlockiv` for one-value parameters.
    pub fn get_active_uniform_block_parameter_i32(
        &mut self,
        program: Program,
        index: u32,
        pname: u32,
    ) -> i32 {
        self.finish_program(program);
        let r = self.program_obj(program).and_then(|p| {
            let l = p.link_result().ok_or(GlError::InvalidValue)?;
            let b = l
                .uniform_blocks
                .get(index as usize)
                .ok_or(GlError::InvalidValue)?;
            let stage_bit = |s: rgl_glsl::Stage| (b.stages >> s as u32) & 1;
            Ok(match pname {
                gl::UNIFORM_BLOCK_BINDING => {
                    p.block_bindings.get(index as usize).copied().unwrap_or(0) as i32
                }
                gl::UNIFORM_BLOCK_DATA_SIZE => b.data_size as i32,
                gl::UNIFORM_BLOCK_NAME_LENGTH => b.name.len() as i32 + 1,
                gl::UNIFORM_BLOCK_ACTIVE_UNIFORMS => b.members.len() as i32,
                gl::UNIFORM_BLOCK_REFERENCED_BY_VERTEX_SHADER => {
                    stage_bit(rgl_glsl::Stage::Vertex) as i32
                }
                gl::UNIFORM_BLOCK_REFERENCED_BY_GEOMETRY_SHADER => {
                    stage_bit(rgl_glsl::Stage::Geometry) as i32
                }
                gl::UNIFORM_BLOCK_REFERENCED_BY_FRAGMENT_SHADER => {
                    stage_bit(rgl_glsl::Stage::Fragment) as i32
                }
                _ => return Err(GlError::InvalidEnum),
            })
        });
        self.check(r).unwrap_or(0)
    }

    /// `glGetActiveUniformsiv` for one uniform index.
    pub fn get_active_uniform_parameter_i32(
        &mut self,
        program: Program,
        index: u32,
        pname: u32,
    ) -> i32 {
        self.finish_program(program);
        let r = self.linked_of(program).and_then(|l| {
            let u = l
                .uniforms
                .get(index as usize)
                .ok_or(GlError::InvalidValue)?;
            Ok(match pname {
                gl::UNIFORM_TYPE => gl_type(&u.ty) as i32,
                gl::UNIFORM_SIZE => u.array_size.max(1) as i32,
                gl::UNIFORM_NAME_LENGTH => u.name.len() as i32 + 1,
                gl::UNIFORM_BLOCK_INDEX => u.block.map_or(-1, |b| b as i32),
                gl::UNIFORM_OFFSET => u.offset,
                gl::UNIFORM_ARRAY_STRIDE => u.array_stride,
                gl::UNIFORM_MATRIX_STRIDE => u.matrix_stride,
                gl::UNIFORM_IS_ROW_MAJOR => u.row_major as i32,
                _ => return Err(GlError::InvalidEnum),
            })
        });
        self.check(r).unwrap_or(0)
    }
}
