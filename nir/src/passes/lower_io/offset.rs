//! Deref chains of `lower_io` turned into offsets: the variable and the links below
//! it ([`deref_path`]), the constant part and the `index * stride` terms of the offset
//! in vec4 slots or std140 bytes with the vector component the last link selects
//! ([`compute_offset`]), and the emission of the dynamic part ([`emit_offset`]).
//! Shared by the plain IO, compact array and uniform/UBO lowerings.

use super::*;
use crate::ir::names::alu_type_code;
use crate::ir::types::{matrix_vector_stride, Packing};
use crate::opcodes::{AluType, Base};

/// One step of a deref chain below the variable.
#[derive(Copy, Clone, Debug)]
pub(super) enum Link {
    Array(Def),
    Struct(u32),
}

/// The variable and the links from it to the leaf deref `d`, root first.
pub(super) fn deref_path(func: &FunctionImpl, mut d: Def) -> Option<(VarId, Vec<Link>)> {
    let mut links = Vec::new();
    for _ in 0..func.instrs.len() + 1 {
        let InstrKind::Deref(deref) = &func.instrs[func.defs.get(d)?.instr].kind else {
            return None;
        };
        match &deref.kind {
            DerefKind::Var(v) => {
                links.reverse();
                return Some((*v, links));
            }
            DerefKind::Array { parent, index } => {
                links.push(Link::Array(*index));
                d = *parent;
            }
            DerefKind::Struct { parent, field } => {
                links.push(Link::Struct(*field));
                d = *parent;
            }
            DerefKind::ArrayWildcard { .. } | DerefKind::Cast { .. } => return None,
        }
    }
    None
}

/// Units an offset is measured in.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(super) enum Units {
    Vec4,
    /// Bytes of a block laid out with this packing (std140 for uniform blocks).
    Bytes(Packing),
    Samplers,
    /// Image indices (image leaves through arrays and struct members).
    Images,
}

/// A vector component chosen by the last link.
#[derive(Copy, Clone, Debug)]
pub(super) enum Comp {
    Const(u8),
    Dynamic(Def),
}

/// An offset: constant part plus `index * stride` terms, and a component selection.
/// `comp_stride` is the distance between the components of the vector reached, in
/// the offset's units (std140 bytes: 4, or 16 for a column of a row-major matrix;
/// other units: unused, 1).
#[derive(Clone, Debug)]
pub(super) struct Offset {
    pub(super) konst: u32,
    pub(super) terms: Vec<(Def, u32)>,
    pub(super) comp: Option<Comp>,
    pub(super) comp_stride: u32,
}

impl Default for Offset {
    fn default() -> Self {
        Offset {
            konst: 0,
            terms: Vec::new(),
            comp: None,
            comp_stride: 1,
        }
    }
}

/// A 32-bit scalar constant as u32, if `d` is one.
pub(super) fn const_u32(func: &FunctionImpl, d: Def) -> Option<u32> {
    let v = func.const_value(d)?;
    (v.len() == 1).then(|| v[0] as u32)
}

/// Walks `links` from `ty`, returning the offset and the leaf type.
pub(super) fn compute_offset(
    func: &FunctionImpl,
    structs: &[StructDef],
    ty: &Type,
    links: &[Link],
    units: Units,
) -> Option<(Offset, Type)> {
    let mut off = Offset::default();
    if matches!(units, Units::Bytes(_)) {
        off.comp_stride = 4;
    }
    let mut ty = ty.clone();
    // Matrix layout in effect (std140 only; the top of a block is column-major).
    let mut row_major = false;
    for link in links {
        if off.comp.is_some() {
            return None;
        }
        match (*link, &ty) {
            (Link::Array(idx), Type::Vector(b, n)) => {
                if func.defs[idx].bit_size != 32 || func.defs[idx].num_components != 1 {
                    return None;
                }
                off.comp = Some(match const_u32(func, idx) {
                    Some(c) if c < u32::from(*n) => Comp::Const(c as u8),
                    Some(_) => return None,
                    None => Comp::Dynamic(idx),
                });
                ty = Type::Scalar(*b);
            }
            (Link::Array(idx), Type::Array(..) | Type::Matrix { .. }) => {
                if func.defs[idx].bit_size != 32 || func.defs[idx].num_components != 1 {
                    return None;
                }
                let elem = ty.element()?;
                let stride = match units {
                    Units::Vec4 => elem.type_size_vec4(structs)?,
                    Units::Bytes(p) => ty.packed_array_stride(structs, row_major, p)?,
                    Units::Samplers => sampler_count(&elem, structs)?,
                    Units::Images => image_count(&elem, structs)?,
                };
                if let (Units::Bytes(p), true, Type::Matrix { columns, rows }) =
                    (units, row_major, &ty)
                {
                    // A column of a row-major matrix: one component per row vector.
                    off.comp_stride = matrix_vector_stride(*columns, *rows, true, p);
                }
                match const_u32(func, idx) {
                    Some(c) => off.konst = off.konst.checked_add(c.checked_mul(stride)?)?,
                    None => off.terms.push((idx, stride)),
                }
                ty = elem;
            }
            (Link::Struct(f), Type::Struct(id)) => {
                let st = structs.get(id.index())?;
                let f = f as usize;
                let field_ty = st.fields.get(f)?.1.clone();
                let add = match units {
                    Units::Vec4 => st.fields[..f]
                        .iter()
                        .try_fold(0u32, |a, (_, t)| a.checked_add(t.type_size_vec4(structs)?))?,
                    Units::Bytes(p) => ty.packed_field_offset(structs, f, row_major, p)?,
                    Units::Samplers => st.fields[..f]
                        .iter()
                        .try_fold(0u32, |a, (_, t)| a.checked_add(sampler_count(t, structs)?))?,
                    Units::Images => st.fields[..f]
                        .iter()
                        .try_fold(0u32, |a, (_, t)| a.checked_add(image_count(t, structs)?))?,
                };
                off.konst = off.konst.checked_add(add)?;
                row_major = st.field_row_major(f, row_major);
                ty = field_ty;
            }
            _ => return None,
        }
    }
    Some((off, ty))
}

/// Emits the dynamic part of an offset (plus `extra` constant) as a 32-bit value.
pub(super) fn emit_offset(b: &mut Builder, terms: &[(Def, u32)], konst: u32) -> Def {
    let mut sum: Option<Def> = None;
    for &(idx, stride) in terms {
        let term = if stride == 1 {
            idx
        } else {
            let s = b.imm_i32(stride as i32);
            b.alu_sized(
                Opcode::imul,
                vec![AluSrc::new(idx), AluSrc::new(s)],
                false,
                1,
                32,
            )
        };
        sum = Some(match sum {
            None => term,
            Some(acc) => b.alu_sized(
                Opcode::iadd,
                vec![AluSrc::new(acc), AluSrc::new(term)],
                false,
                1,
                32,
            ),
        });
    }
    match sum {
        None => b.imm_i32(konst as i32),
        Some(s) if konst == 0 => s,
        Some(s) => {
            let k = b.imm_i32(konst as i32);
            b.alu_sized(
                Opcode::iadd,
                vec![AluSrc::new(s), AluSrc::new(k)],
                false,
                1,
                32,
            )
        }
    }
}

/// The ALU type code of values of `ty` (bool → bool32, as stored).
pub(super) fn type_code(ty: &Type) -> Option<u32> {
    let base = match ty {
        Type::Scalar(b) | Type::Vector(b, _) => *b,
        _ => return None,
    };
    let base = match base {
        BaseType::Float => Base::Float,
        BaseType::Int => Base::Int,
        BaseType::Uint => Base::Uint,
        BaseType::Bool => Base::Bool,
    };
    Some(alu_type_code(AluType { base, bits: 32 }))
}

pub(super) fn is_bool(ty: &Type) -> bool {
    matches!(
        ty,
        Type::Scalar(BaseType::Bool) | Type::Vector(BaseType::Bool, _)
    )
}

/// Picks component `sel` of the value `v`.
pub(super) fn pick_component(b: &mut Builder, v: Def, sel: Comp) -> Def {
    match sel {
        Comp::Const(c) => b.channel(v, c),
        Comp::Dynamic(idx) => b.vector_extract(v, idx),
    }
}

/// Alignment of `konst + Σ terms`: the largest power of two (≤ 16, ≥ 4) dividing
/// every stride, and the constant's remainder.
pub(super) fn alignment(terms: &[(Def, u32)], konst: u32) -> (u32, u32) {
    let mul = terms
        .iter()
        .map(|(_, s)| {
            if *s == 0 {
                16
            } else {
                1u32 << s.trailing_zeros().min(4)
            }
        })
        .min()
        .unwrap_or(16)
        .max(4);
    (mul, konst % mul)
}
