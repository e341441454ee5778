//! The interpreter's memory model: deref values ([`Ptr`]), where a variable of each
//! mode lives ([`Root`]), and the two layouts addresses are computed in: vec4 slots
//! (temporaries, IO, default-block uniforms, samplers) and std140 bytes (uniform
//! blocks).

use crate::ir::{BaseType, StructDef, Type, VarId};

/// Where a deref chain starts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Root {
    /// A `function_temp` variable of one call frame.
    Local {
        /// Call frame.
        frame: u32,
        /// Variable.
        var: VarId,
    },
    /// A `shader_temp` variable (or a temp without a frame).
    Global(VarId),
    /// Shader inputs; `vertex` is `None` until a per-vertex index is applied.
    Input,
    /// Shader outputs.
    Output,
    /// Default-block uniform storage (slots).
    Uniform,
    /// Uniform block `block` (bytes).
    Ubo(u32),
    /// System value `SYSTEM_VALUE_*`.
    SysVal(i32),
}

/// A deref value: an address plus the type addressed.
#[derive(Clone, Debug, PartialEq)]
pub struct Ptr {
    /// Storage.
    pub root: Root,
    /// Vec4 slot (or IO location, uniform slot); unused for UBOs.
    pub slot: i64,
    /// Component inside the slot (may exceed 3 for compact arrays; normalised on
    /// access).
    pub comp: i64,
    /// Byte offset (UBOs).
    pub byte: i64,
    /// Type addressed.
    pub ty: Type,
    /// Geometry-shader input: the first array index selects the vertex.
    pub vertex_pending: bool,
    /// Sampler index reached (uniform samplers: the variable's `driver_location` plus
    /// the samplers before this point in flattening order).
    pub sampler: i64,
    /// Image index reached (image uniforms: the variable's `driver_location`
    /// plus the images before this point in flattening order).
    pub image: i64,
    /// Array of uniform blocks: the first array index selects the block.
    pub block_pending: bool,
    /// Vertex index of a per-vertex input.
    pub vertex: u32,
    /// Compact float array (clip/cull distances): array indices step components.
    pub compact: bool,
    /// Matrices reached are row-major (std140 layout state of a UBO deref).
    pub row_major: bool,
    /// Byte step between the components of the vector addressed (4; 16 for a column
    /// of a row-major matrix).
    pub comp_bytes: i64,
    /// Wildcard array levels: (slot stride, component stride, byte stride, length).
    pub wildcards: Vec<(i64, i64, i64, u32)>,
    /// An index went outside its array / matrix / vector.
    pub out_of_bounds: bool,
}

/// Most leaves enumerated for one copy (bounds hostile copies of huge arrays).
pub const MAX_LEAVES: usize = 1 << 20;

/// Vec4 slots `ty` occupies (`type_size_vec4`; samplers take none, as in the
/// linker's default-block layout).
pub fn slots(ty: &Type, structs: &[StructDef]) -> i64 {
    slots_depth(ty, structs, 0)
}

fn slots_depth(ty: &Type, structs: &[StructDef], depth: u32) -> i64 {
    if depth > 64 {
        return 0;
    }
    match ty {
        Type::Scalar(_) | Type::Vector(..) => 1,
        Type::Sampler { .. } | Type::Image { .. } => 0,
        Type::Matrix { columns, .. } => i64::from(*columns),
        Type::Array(e, n) => slots_depth(e, structs, depth + 1).saturating_mul(i64::from(*n)),
        Type::Struct(id) => structs
            .get(crate::arena::EntityRef::index(*id))
            .map(|s| {
                s.fields
                    .iter()
                    .map(|(_, f)| slots_depth(f, structs, depth + 1))
                    .fold(0i64, |a, b| a.saturating_add(b))
            })
            .unwrap_or(0),
    }
}

fn round_up(v: i64, a: i64) -> i64 {
    if a <= 1 {
        v
    } else {
        v.saturating_add(a - 1) / a * a
    }
}

/// Sampler leaves of `ty` (sampler indices it takes).
pub fn samplers(ty: &Type, structs: &[StructDef]) -> i64 {
    samplers_depth(ty, structs, 0)
}

fn samplers_depth(ty: &Type, structs: &[StructDef], depth: u32) -> i64 {
    if depth > 64 {
        return 0;
    }
    match ty {
        Type::Sampler { .. } => 1,
        Type::Scalar(_) | Type::Vector(..) | Type::Matrix { .. } | Type::Image { .. } => 0,
        Type::Array(e, n) => samplers_depth(e, structs, depth + 1).saturating_mul(i64::from(*n)),
        Type::Struct(id) => structs
            .get(crate::arena::EntityRef::index(*id))
            .map(|s| {
                s.fields
                    .iter()
                    .map(|(_, f)| samplers_depth(f, structs, depth + 1))
                    .fold(0i64, |a, b| a.saturating_add(b))
            })
            .unwrap_or(0),
    }
}

/// Image leaves of `ty` (image indices it takes).
pub fn images(ty: &Type, structs: &[StructDef]) -> i64 {
    fn go(ty: &Type, structs: &[StructDef], depth: u32) -> i64 {
        if depth > 64 {
            return 0;
        }
        match ty {
            Type::Image { .. } => 1,
            Type::Array(e, n) => go(e, structs, depth + 1).saturating_mul(i64::from(*n)),
            Type::Struct(id) => structs
                .get(crate::arena::EntityRef::index(*id))
                .map(|s| {
                    s.fields
                        .iter()
                        .map(|(_, f)| go(f, structs, depth + 1))
                        .fold(0i64, |a, b| a.saturating_add(b))
                })
                .unwrap_or(0),
            _ => 0,
        }
    }
    go(ty, structs, 0)
}

/// Image offset of struct field `field` of `def`.
pub fn image_field_offset(def: &StructDef, field: usize, structs: &[StructDef]) -> i64 {
    def.fields
        .iter()
        .take(field)
        .map(|(_, f)| images(f, structs))
        .fold(0i64, |a, b| a.saturating_add(b))
}

/// Sampler offset of struct field `field` of `def`.
pub fn sampler_field_offset(def: &StructDef, field: usize, structs: &[StructDef]) -> i64 {
    def.fields
        .iter()
        .take(field)
        .map(|(_, f)| samplers(f, structs))
        .fold(0i64, |a, b| a.saturating_add(b))
}

/// std140 (base alignment, size) of `ty` in bytes; `rm` is the enclosing matrix
/// layout (row-major: a `CxR` matrix is `R` 16-byte row vectors).
pub fn std140(ty: &Type, structs: &[StructDef], rm: bool) -> (i64, i64) {
    std140_depth(ty, structs, 0, rm)
}

fn std140_depth(ty: &Type, structs: &[StructDef], depth: u32, rm: bool) -> (i64, i64) {
    if depth > 64 {
        return (4, 0);
    }
    match ty {
        Type::Scalar(_) | Type::Sampler { .. } | Type::Image { .. } => (4, 4),
        Type::Vector(_, n) => match n {
            2 => (8, 8),
            3 => (16, 12),
            _ => (16, 16),
        },
        Type::Matrix { columns, rows } => (16, 16 * i64::from(if rm { *rows } else { *columns })),
        Type::Array(e, n) => {
            let (_, stride) = std140_array_stride(e, structs, depth + 1, rm);
            (16, stride.saturating_mul(i64::from(*n)))
        }
        Type::Struct(id) => {
            let Some(s) = structs.get(crate::arena::EntityRef::index(*id)) else {
                return (16, 0);
            };
            let mut off = 0i64;
            let mut align = 16i64;
            for (i, (_, f)) in s.fields.iter().enumerate() {
                let (a, size) = std140_depth(f, structs, depth + 1, s.field_row_major(i, rm));
                align = align.max(a);
                let start = match s.explicit_offset(i) {
                    Some(o) => i64::from(o),
                    None => round_up(off, a),
                };
                off = start.saturating_add(size);
            }
            (align, round_up(off, 16))
        }
    }
}

fn std140_array_stride(elem: &Type, structs: &[StructDef], depth: u32, rm: bool) -> (i64, i64) {
    let (a, size) = std140_depth(elem, structs, depth, rm);
    (16, round_up(size, a.max(16)))
}

/// std140 byte offset of struct field `field` of `def` laid out with enclosing matrix
/// layout `rm`.
pub fn std140_field_offset(def: &StructDef, field: usize, structs: &[StructDef], rm: bool) -> i64 {
    let mut off = 0i64;
    for (i, (_, f)) in def.fields.iter().enumerate() {
        let (a, size) = std140(f, structs, def.field_row_major(i, rm));
        off = match def.explicit_offset(i) {
            Some(o) => i64::from(o),
            None => round_up(off, a),
        };
        if i == field {
            return off;
        }
        off = off.saturating_add(size);
    }
    off
}

/// std140 byte steps of a matrix: (between columns, between a column's components).
pub fn std140_matrix_steps(rm: bool) -> (i64, i64) {
    if rm {
        (4, 16)
    } else {
        (16, 4)
    }
}

/// Slot offset of struct field `field` of `def`.
pub fn slot_field_offset(def: &StructDef, field: usize, structs: &[StructDef]) -> i64 {
    def.fields
        .iter()
        .take(field)
        .map(|(_, f)| slots(f, structs))
        .fold(0i64, |a, b| a.saturating_add(b))
}

/// std140 stride of array elements of type `elem` under matrix layout `rm`.
pub fn std140_stride(elem: &Type, structs: &[StructDef], rm: bool) -> i64 {
    std140_array_stride(elem, structs, 0, rm).1
}

/// One scalar leaf of a type: (slot offset, component offset, byte offset, base type).
#[derive(Copy, Clone, Debug)]
pub struct Leaf {
    /// Slot offset from the value's start.
    pub slot: i64,
    /// Component offset.
    pub comp: i64,
    /// std140 byte offset.
    pub byte: i64,
    /// Scalar type (samplers are `Uint`).
    pub base: BaseType,
}

/// Scalar leaves of `ty` in flattening order (vector components, matrix columns,
/// array elements, struct members); `None` when there are more than [`MAX_LEAVES`].
/// `compact` lays a float array out as consecutive components. `layout` is the
/// std140 layout state the value starts in: (row-major matrices, byte step between
/// the components of a top-level vector: 4, or 16 for a row-major matrix column).
pub fn leaves(
    ty: &Type,
    structs: &[StructDef],
    compact: bool,
    layout: (bool, i64),
) -> Option<Vec<Leaf>> {
    let mut out = Vec::new();
    leaves_into(ty, structs, compact, (0, 0, 0), layout, &mut out, 0)?;
    Some(out)
}

fn leaves_into(
    ty: &Type,
    structs: &[StructDef],
    compact: bool,
    at: (i64, i64, i64),
    layout: (bool, i64),
    out: &mut Vec<Leaf>,
    depth: u32,
) -> Option<()> {
    let (rm, comp_step) = layout;
    if depth > 64 || out.len() > MAX_LEAVES {
        return None;
    }
    let (slot, comp, byte) = at;
    match ty {
        Type::Scalar(b) => out.push(Leaf {
            slot,
            comp,
            byte,
            base: *b,
        }),
        Type::Sampler { .. } | Type::Image { .. } => out.push(Leaf {
            slot,
            comp,
            byte,
            base: BaseType::Uint,
        }),
        Type::Vector(b, n) => {
            for i in 0..i64::from(*n) {
                out.push(Leaf {
                    slot,
                    comp: comp + i,
                    byte: byte + comp_step * i,
                    base: *b,
                });
            }
        }
        Type::Matrix { columns, rows } => {
            let (col_step, row_step) = std140_matrix_steps(rm);
            for c in 0..i64::from(*columns) {
                for r in 0..i64::from(*rows) {
                    out.push(Leaf {
                        slot: slot + c,
                        comp: comp + r,
                        byte: byte + col_step * c + row_step * r,
                        base: BaseType::Float,
                    });
                }
            }
        }
        Type::Array(e, n) => {
            let s = slots(e, structs);
            let stride = std140_stride(e, structs, rm);
            for i in 0..i64::from(*n) {
                if out.len() > MAX_LEAVES {
                    return None;
                }
                let at = if compact {
                    (slot, comp + i, byte + stride * i)
                } else {
                    (slot + s * i, comp, byte + stride * i)
                };
                leaves_into(e, structs, compact, at, (rm, 4), out, depth + 1)?;
            }
        }
        Type::Struct(id) => {
            let def = structs.get(crate::arena::EntityRef::index(*id))?;
            for (i, (_, f)) in def.fields.iter().enumerate() {
                let at = (
                    slot + slot_field_offset(def, i, structs),
                    comp,
                    byte + std140_field_offset(def, i, structs, rm),
                );
                let layout = (def.field_row_major(i, rm), 4);
                leaves_into(f, structs, compact, at, layout, out, depth + 1)?;
            }
        }
    }
    if out.len() > MAX_LEAVES {
        None
    } else {
        Some(())
    }
}

/// Normalises a (slot, component) pair so the component is in 0..4.
pub fn normalise(slot: i64, comp: i64) -> (i64, i64) {
    (slot.saturating_add(comp.div_euclid(4)), comp.rem_euclid(4))
}
