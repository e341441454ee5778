//! Type helpers of the linker: remapping struct handles between modules, structural
//! type comparison across modules, GLSL type names, and per-struct size tables
//! (vec4 slots, std140 size/alignment) computed once in declaration order so that
//! hostile nesting (struct of struct of …) costs linear time and no recursion.

use std::collections::HashSet;

use rgl_glsl::arena::Handle;
use rgl_glsl::hir::MatrixLayout;
use rgl_glsl::types::{StructArena, StructType, Type};

/// Rewrites struct handles of `ty` through `map` (indexed by the old handle).
pub fn remap_type(ty: &Type, map: &[Handle<StructType>]) -> Type {
    match ty {
        Type::Struct(h) => match map.get(h.index()) {
            Some(n) => Type::Struct(*n),
            None => ty.clone(),
        },
        Type::Array(elem, len) => Type::Array(Box::new(remap_type(elem, map)), *len),
        other => other.clone(),
    }
}

/// GLSL spelling of a type (`vec4`, `float[3]`, `S`).
pub fn type_name(ty: &Type, structs: &StructArena) -> String {
    ty.display(structs).to_string()
}

/// The element type under all array levels.
pub fn without_array(ty: &Type) -> &Type {
    let mut t = ty;
    while let Type::Array(elem, _) = t {
        t = elem;
    }
    t
}

/// GLSL 4.40 §4.4.1, §4.4.2.1, §4.4.5: matched block members have the same
/// `component`, `offset` (for a block the checker placed: every member's
/// std140 offset), `align` and transform feedback qualifiers.
fn enhanced_layouts_match(
    x: &rgl_glsl::hir::MemberQualifiers,
    y: &rgl_glsl::hir::MemberQualifiers,
) -> bool {
    x.component == y.component
        && x.offset == y.offset
        && x.align == y.align
        && x.xfb_buffer == y.xfb_buffer
        && x.xfb_offset == y.xfb_offset
}

/// Structural equality of two types that may live in different modules: structs
/// compare by name and members (names, types, qualifiers that matter for layout).
pub fn types_match(a: &Type, sa: &StructArena, b: &Type, sb: &StructArena) -> bool {
    let mut seen: HashSet<(usize, usize)> = HashSet::new();
    let mut work: Vec<(Type, Type)> = vec![(a.clone(), b.clone())];
    while let Some((x, y)) = work.pop() {
        match (&x, &y) {
            (Type::Struct(hx), Type::Struct(hy)) => {
                if !seen.insert((hx.index(), hy.index())) {
                    continue;
                }
                let (Some(px), Some(py)) = (sa.get(*hx), sb.get(*hy)) else {
                    return false;
                };
                if px.name != py.name || px.fields.len() != py.fields.len() {
                    return false;
                }
                for (fx, fy) in px.fields.iter().zip(&py.fields) {
                    // GLSL 1.50 §4.3.7: matched blocks have the same member-wise
                    // qualification; for in/out blocks that includes the
                    // interpolation and auxiliary qualifiers (§4.3.9), as Mesa's
                    // `glsl_type::record_compare` checks.
                    let io_mismatch = px.is_interface
                        && (fx.qualifiers.interpolation != fy.qualifiers.interpolation
                            || fx.qualifiers.centroid != fy.qualifiers.centroid);
                    if fx.name != fy.name
                        || io_mismatch
                        || fx.qualifiers.matrix_layout != fy.qualifiers.matrix_layout
                        || fx.qualifiers.location != fy.qualifiers.location
                        || !enhanced_layouts_match(&fx.qualifiers, &fy.qualifiers)
                    {
                        return false;
                    }
                    work.push((fx.ty.clone(), fy.ty.clone()));
                }
            }
            (Type::Array(ex, lx), Type::Array(ey, ly)) => {
                if lx != ly {
                    return false;
                }
                work.push(((**ex).clone(), (**ey).clone()));
            }
            _ => {
                if x != y {
                    return false;
                }
            }
        }
    }
    true
}

/// Sizes of every struct of an arena, computed in declaration order.
#[derive(Clone, Debug, Default)]
pub struct StructSizes {
    /// Default-block vec4 slots (samplers take none).
    uniform_slots: Vec<u64>,
    /// Varying/attribute vec4 slots.
    io_slots: Vec<u64>,
    /// Scalar components (samplers count one).
    components: Vec<u64>,
    /// Samplers inside.
    samplers: Vec<u64>,
    /// Images inside.
    images: Vec<u64>,
    /// std140 (size, alignment) when members without a matrix layout of their
    /// own are column-major ([0]) or row-major ([1]), as the enclosing block or
    /// member decides.
    std140: [Vec<(u64, u64)>; 2],
}

impl StructSizes {
    /// Builds the tables. A field referring to a struct declared later (which the
    /// front end never produces) counts as empty.
    pub fn new(structs: &StructArena) -> StructSizes {
        let mut s = StructSizes::default();
        for (_, st) in structs.iter() {
            let mut uniform = 0u64;
            let mut io = 0u64;
            let mut comps = 0u64;
            let mut samplers = 0u64;
            let mut images = 0u64;
            for f in &st.fields {
                images = images.saturating_add(s.images_of(&f.ty));
                uniform = uniform.saturating_add(s.uniform_slots_of(&f.ty));
                io = io.saturating_add(s.io_slots_of(&f.ty));
                comps = comps.saturating_add(s.components_of(&f.ty));
                samplers = samplers.saturating_add(s.samplers_of(&f.ty));
            }
            for inherited_row_major in [false, true] {
                let mut offset = 0u64;
                let mut align = 16u64;
                for f in &st.fields {
                    let row_major = match f.qualifiers.matrix_layout {
                        MatrixLayout::Inherited => inherited_row_major,
                        other => other == MatrixLayout::RowMajor,
                    };
                    let (size, a) = s.std140_of(&f.ty, row_major);
                    offset = round_up(offset, a).saturating_add(size);
                    align = align.max(a);
                }
                s.std140[inherited_row_major as usize].push((round_up(offset, align), align));
            }
            s.uniform_slots.push(uniform);
            s.io_slots.push(io);
            s.components.push(comps);
            s.samplers.push(samplers);
            s.images.push(images);
        }
        s
    }

    fn get(table: &[u64], h: Handle<StructType>) -> u64 {
        table.get(h.index()).copied().unwrap_or(0)
    }

    /// Default-block vec4 slots of a type (samplers take none).
    pub fn uniform_slots_of(&self, ty: &Type) -> u64 {
        match ty {
            Type::Scalar(_) | Type::Vector(..) => 1,
            Type::Matrix { columns, .. } => *columns as u64,
            Type::Array(e, n) => self
                .uniform_slots_of(e)
                .saturating_mul(n.unwrap_or(0) as u64),
            Type::Struct(h) => Self::get(&self.uniform_slots, *h),
            _ => 0,
        }
    }

    /// Varying / attribute vec4 slots of a type.
    pub fn io_slots_of(&self, ty: &Type) -> u64 {
        match ty {
            Type::Scalar(_) | Type::Vector(..) | Type::Sampler(_) => 1,
            Type::Matrix { columns, .. } => *columns as u64,
            Type::Array(e, n) => self.io_slots_of(e).saturating_mul(n.unwrap_or(0) as u64),
            Type::Struct(h) => Self::get(&self.io_slots, *h),
            _ => 0,
        }
    }

    /// Scalar components of a type.
    pub fn components_of(&self, ty: &Type) -> u64 {
        match ty {
            Type::Scalar(_) | Type::Vector(..) | Type::Matrix { .. } => ty.components() as u64,
            Type::Sampler(_) => 1,
            Type::Array(e, n) => self.components_of(e).saturating_mul(n.unwrap_or(0) as u64),
            Type::Struct(h) => Self::get(&self.components, *h),
            _ => 0,
        }
    }

    /// Samplers inside a type.
    pub fn samplers_of(&self, ty: &Type) -> u64 {
        match ty {
            Type::Sampler(_) => 1,
            Type::Array(e, n) => self.samplers_of(e).saturating_mul(n.unwrap_or(0) as u64),
            Type::Struct(h) => Self::get(&self.samplers, *h),
            _ => 0,
        }
    }

    /// Image uniforms of a type (image indices it takes, GL 4.2 §8.26).
    pub fn images_of(&self, ty: &Type) -> u64 {
        match ty {
            Type::Image(_) => 1,
            Type::Array(e, n) => self.images_of(e).saturating_mul(n.unwrap_or(0) as u64),
            Type::Struct(h) => Self::get(&self.images, *h),
            _ => 0,
        }
    }

    /// std140 (size, base alignment) of a type; `row_major` applies to matrices,
    /// and to the members of structs that have no layout of their own.
    pub fn std140_of(&self, ty: &Type, row_major: bool) -> (u64, u64) {
        match ty {
            Type::Scalar(_) => (4, 4),
            Type::Vector(_, n) => {
                let a = if *n == 2 { 8 } else { 16 };
                (4 * *n as u64, a)
            }
            Type::Matrix { columns, rows } => {
                let vectors = if row_major { *rows } else { *columns };
                (16 * vectors as u64, 16)
            }
            Type::Array(e, n) => {
                let stride = self.std140_array_stride(e, row_major);
                (stride.saturating_mul(n.unwrap_or(0) as u64), 16)
            }
            Type::Struct(h) => self.std140[row_major as usize]
                .get(h.index())
                .copied()
                .unwrap_or((0, 16)),
            _ => (0, 4),
        }
    }

    /// std140 stride of the elements of an array whose element type is `elem`.
    pub fn std140_array_stride(&self, elem: &Type, row_major: bool) -> u64 {
        let (size, align) = self.std140_of(elem, row_major);
        round_up(size, align.max(16))
    }
}

/// Rounds `v` up to a multiple of `a` (a power of two or any positive value).
pub fn round_up(v: u64, a: u64) -> u64 {
    if a == 0 {
        return v;
    }
    v.div_ceil(a).saturating_mul(a)
}
