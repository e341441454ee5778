//! GLSL 4.40 enhanced layouts (ARB_enhanced_layouts) rules that need types:
//! the `component` qualifier (§4.4.1), the std140 placement of uniform block
//! members with `offset` and `align` (§4.4.5), and the byte sizes the
//! transform feedback checks of the checker use (§4.4.2.1).

use crate::diag::Diagnostic;
use crate::hir::MemberQualifiers;
use crate::span::SourceLoc;
use crate::types::{StructArena, Type};

use super::{DeclContext, QualifierError, ResolvedQualifiers, StorageClass};

/// Nesting guard of the recursive size computations (hostile shaders).
const MAX_DEPTH: u32 = 64;

/// The element type of an array (of arrays), or the type itself.
fn without_array(ty: &Type) -> &Type {
    let mut t = ty;
    while let Type::Array(elem, _) = t {
        t = elem;
    }
    t
}

/// `component` rules (GLSL 4.40 §4.4.1): only on shader inputs and outputs
/// (variables and in/out block members) that also have a `location`, never on
/// a matrix, structure or block or arrays of them, and the components must
/// fit in the location.
pub(super) fn check_component(
    q: &ResolvedQualifiers,
    ty: &Type,
    structs: &StructArena,
    context: DeclContext,
    loc: SourceLoc,
    diags: &mut Vec<Diagnostic>,
) {
    let Some(component) = q.layout.component else {
        return;
    };
    let mut error = |e: QualifierError| diags.push(Diagnostic::error(loc, e));
    let interface = match context {
        DeclContext::GlobalVariable => matches!(q.storage, StorageClass::In | StorageClass::Out),
        DeclContext::BlockMember(block) => matches!(block, StorageClass::In | StorageClass::Out),
        DeclContext::Block => {
            error(QualifierError::ComponentType("block".into()));
            return;
        }
        _ => false,
    };
    if !interface {
        error(QualifierError::ComponentStorage);
        return;
    }
    if q.layout.location.is_none() {
        error(QualifierError::ComponentWithoutLocation);
    }
    let base = without_array(ty);
    let size = match base {
        Type::Scalar(_) => 1,
        Type::Vector(_, n) => u32::from(*n),
        Type::Error => return,
        _ => {
            error(QualifierError::ComponentType(
                base.display(structs).to_string(),
            ));
            return;
        }
    };
    if component + size > 4 {
        error(QualifierError::ComponentOverflow {
            component,
            ty: base.display(structs).to_string(),
            size,
        });
    }
}

/// std140 (base alignment, size) in bytes of a type (GLSL 4.40 §7.6.2.2 rules
/// 1–9), `row_major` giving the matrix layout; `None` for types that take no
/// std140 space or on overflow.
pub fn std140_align_size(ty: &Type, structs: &StructArena, row_major: bool) -> Option<(u32, u32)> {
    std140(ty, structs, row_major, false, 0)
}

/// std430 (base alignment, size) in bytes of a type (GLSL 4.30 §7.6.2.2: the
/// std140 rules, except that the base alignment and stride of arrays of
/// scalars and vectors (rule 4), of matrices stored as arrays of vectors
/// (rules 5–8) and of structures (rule 9) are not rounded up to a `vec4`).
pub fn std430_align_size(ty: &Type, structs: &StructArena, row_major: bool) -> Option<(u32, u32)> {
    std140(ty, structs, row_major, true, 0)
}

fn round_up(v: u32, a: u32) -> Option<u32> {
    v.checked_add(a - 1).map(|x| x / a * a)
}

fn std140(
    ty: &Type,
    structs: &StructArena,
    row_major: bool,
    std430: bool,
    depth: u32,
) -> Option<(u32, u32)> {
    if depth > MAX_DEPTH {
        return None;
    }
    // The vec4 rounding of rules 4 and 9, which std430 drops.
    let min_align = if std430 { 1 } else { 16 };
    match ty {
        Type::Scalar(_) => Some((4, 4)),
        Type::Vector(_, n) => Some((if *n == 2 { 8 } else { 16 }, 4 * u32::from(*n))),
        Type::Matrix { columns, rows } => {
            // Rules 5/7: an array of column (or, row-major, row) vectors.
            let (vectors, length) = if row_major {
                (*rows, *columns)
            } else {
                (*columns, *rows)
            };
            let vector = Type::Vector(crate::types::ScalarKind::Float, length);
            std140(
                &Type::Array(Box::new(vector), Some(u32::from(vectors))),
                structs,
                row_major,
                std430,
                depth + 1,
            )
        }
        Type::Array(elem, n) => {
            let (a, s) = std140(elem, structs, row_major, std430, depth + 1)?;
            let align = a.max(min_align);
            let stride = round_up(s, align)?;
            Some((align, stride.checked_mul(n.unwrap_or(0))?))
        }
        Type::Struct(h) => {
            let st = structs.get(*h)?;
            let mut offset = 0u32;
            let mut align = min_align;
            for f in &st.fields {
                let (a, s) = std140(&f.ty, structs, row_major, std430, depth + 1)?;
                align = align.max(a);
                offset = round_up(offset, a)?.checked_add(s)?;
            }
            Some((align, round_up(offset, align)?))
        }
        _ => None,
    }
}

/// One uniform block member for [`place_block_members`].
pub struct PlacedMember<'a> {
    /// Member name (for messages).
    pub name: &'a str,
    /// Member type.
    pub ty: &'a Type,
    /// Its qualifiers (`offset` and `align` as written).
    pub qualifiers: &'a MemberQualifiers,
    /// Effective matrix layout.
    pub row_major: bool,
    /// Where the member is declared.
    pub loc: SourceLoc,
}

/// The std140 byte offsets of the members of a uniform block that uses
/// `offset` or `align` (GLSL 4.40 §4.4.5): "If offset was declared, start with
/// that offset, otherwise start with the next available offset. If the
/// resulting offset is not a multiple of the actual alignment, increase it to
/// the first offset that is a multiple of the actual alignment", the actual
/// alignment being the larger of the base alignment and the member's `align`
/// (or else the block's). Reports an `offset` that is not a multiple of the
/// member's base alignment or that lies within or before the previous member.
/// `None` when a size cannot be computed (reported elsewhere or an overflow).
pub fn place_block_members(
    members: &[PlacedMember<'_>],
    block_align: Option<u32>,
    std430: bool,
    structs: &StructArena,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<u32>> {
    let mut offsets = Vec::with_capacity(members.len());
    let mut next = 0u32;
    for (i, m) in members.iter().enumerate() {
        let (base_align, size) = std140(m.ty, structs, m.row_major, std430, 0)?;
        let align = base_align.max(m.qualifiers.align.or(block_align).unwrap_or(1));
        let start = match m.qualifiers.offset {
            Some(offset) => {
                if !offset.is_multiple_of(base_align) {
                    diags.push(Diagnostic::error(
                        m.loc,
                        QualifierError::OffsetMisaligned {
                            name: m.name.to_string(),
                            offset,
                            align: base_align,
                        },
                    ));
                } else if i > 0 && offset < next {
                    diags.push(Diagnostic::error(
                        m.loc,
                        QualifierError::OffsetOverlap {
                            name: m.name.to_string(),
                            offset,
                            end: next,
                        },
                    ));
                }
                offset
            }
            None => next,
        };
        let actual = round_up(start, align)?;
        offsets.push(actual);
        next = actual.checked_add(size)?;
    }
    Some(offsets)
}

/// Bytes a value of `ty` takes in a transform feedback buffer (4 per
/// component; GLSL 4.40 §4.4.2.1), `None` for an unsized array or on overflow.
pub fn xfb_size(ty: &Type, structs: &StructArena) -> Option<u32> {
    xfb_size_at(ty, structs, 0)
}

fn xfb_size_at(ty: &Type, structs: &StructArena, depth: u32) -> Option<u32> {
    if depth > MAX_DEPTH {
        return None;
    }
    match ty {
        Type::Scalar(_) => Some(4),
        Type::Vector(_, n) => Some(4 * u32::from(*n)),
        Type::Matrix { columns, rows } => Some(4 * u32::from(*columns) * u32::from(*rows)),
        Type::Array(elem, Some(n)) => xfb_size_at(elem, structs, depth + 1)?.checked_mul(*n),
        Type::Struct(h) => structs.get(*h)?.fields.iter().try_fold(0u32, |acc, f| {
            acc.checked_add(xfb_size_at(&f.ty, structs, depth + 1)?)
        }),
        _ => None,
    }
}
