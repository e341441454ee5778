//! NIR's own small type representation (GLSL-like: scalars, vectors, matrices, arrays,
//! structs, samplers), independent of `rgl-glsl`. Struct types live in the shader's
//! struct table and are referenced by [`StructId`]. The std140 matrix layout of uniform
//! block members lives on struct fields ([`FieldLayout`]), not on the matrix type, so
//! a struct shared by a block and a temporary stays one type (copies between them
//! type-check) and only std140 addressing looks at it.

use crate::arena::EntityRef;
use std::fmt;

crate::entity!(
    /// Handle of a struct declaration in [`crate::ir::Shader::structs`].
    StructId,
    "struct"
);

/// Most array dimensions a parsed type may have (keeps recursion over types bounded).
pub const MAX_ARRAY_DIMS: usize = 32;

/// Scalar base type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BaseType {
    /// 32-bit float.
    Float,
    /// 32-bit signed integer.
    Int,
    /// 32-bit unsigned integer.
    Uint,
    /// Boolean.
    Bool,
}

/// Sampler dimensionality (also used by tex instructions).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SamplerDim {
    /// 1D.
    D1,
    /// 2D.
    D2,
    /// 3D.
    D3,
    /// Cube map.
    Cube,
    /// Rectangle (unnormalised coordinates).
    Rect,
    /// Buffer texture.
    Buf,
    /// Multisampled 2D.
    Ms,
    /// External image.
    External,
}

impl SamplerDim {
    /// All dims with their tex-instruction spelling.
    pub const ALL: [(SamplerDim, &'static str); 8] = [
        (SamplerDim::D1, "1D"),
        (SamplerDim::D2, "2D"),
        (SamplerDim::D3, "3D"),
        (SamplerDim::Cube, "Cube"),
        (SamplerDim::Rect, "Rect"),
        (SamplerDim::Buf, "Buf"),
        (SamplerDim::Ms, "2D-MSAA"),
        (SamplerDim::External, "External"),
    ];
    /// The tex-instruction spelling.
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(d, _)| *d == self)
            .map(|(_, n)| *n)
            .unwrap_or("?")
    }
    fn glsl(self) -> &'static str {
        match self {
            SamplerDim::D1 => "1D",
            SamplerDim::D2 => "2D",
            SamplerDim::D3 => "3D",
            SamplerDim::Cube => "Cube",
            SamplerDim::Rect => "2DRect",
            SamplerDim::Buf => "Buffer",
            SamplerDim::Ms => "2DMS",
            SamplerDim::External => "ExternalOES",
        }
    }
}

/// A NIR variable/deref type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// `float`, `int`, `uint`, `bool`.
    Scalar(BaseType),
    /// `vecN`/`ivecN`/`uvecN`/`bvecN`, N in 2..=4.
    Vector(BaseType, u8),
    /// Float matrix with `columns` columns of `rows` rows (`mat3x2` = 3 columns, 2 rows).
    Matrix {
        /// Column count 2..=4.
        columns: u8,
        /// Row count 2..=4.
        rows: u8,
    },
    /// `elem[len]`; `len == 0` means unsized.
    Array(Box<Type>, u32),
    /// A declared struct.
    Struct(StructId),
    /// Combined sampler: result base type, dim, array, shadow.
    Sampler {
        /// Result base type (float/int/uint).
        base: BaseType,
        /// Dimensionality.
        dim: SamplerDim,
        /// Array sampler.
        array: bool,
        /// Shadow sampler.
        shadow: bool,
    },
    /// Image (GLSL 4.20 §4.1.7.2): texel base type, dim, array. Like samplers,
    /// images are opaque uniforms that take no default-block storage; an image
    /// variable's `driver_location` is its image index.
    Image {
        /// Texel base type (float/int/uint).
        base: BaseType,
        /// Dimensionality.
        dim: SamplerDim,
        /// Array image.
        array: bool,
    },
}

/// Matrix layout a struct field gives the matrices inside it when the struct lives in
/// a uniform block (std140 memory); other storage ignores it. GLSL's `row_major` /
/// `column_major` member qualifiers, with the block-level default folded into the
/// block type's own fields by `glsl_to_nir`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum FieldLayout {
    /// The enclosing field's layout (column-major at the top of a block).
    #[default]
    Inherit,
    /// `column_major`.
    ColumnMajor,
    /// `row_major`: a `CxR` matrix is `R` rows of `C` components at a 16-byte stride.
    RowMajor,
}

impl FieldLayout {
    /// Whether matrices under a field with this layout are row-major, given the
    /// enclosing layout `outer`.
    pub fn row_major(self, outer: bool) -> bool {
        match self {
            FieldLayout::Inherit => outer,
            FieldLayout::ColumnMajor => false,
            FieldLayout::RowMajor => true,
        }
    }
    /// The qualifier word printed before a field (`None` for [`FieldLayout::Inherit`]).
    pub fn keyword(self) -> Option<&'static str> {
        match self {
            FieldLayout::Inherit => None,
            FieldLayout::ColumnMajor => Some("column_major"),
            FieldLayout::RowMajor => Some("row_major"),
        }
    }
}

/// A struct declaration.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StructDef {
    /// Type name.
    pub name: String,
    /// Fields in order.
    pub fields: Vec<(String, Type)>,
    /// Matrix layout per field: empty (all [`FieldLayout::Inherit`]) or one entry per
    /// field (the validator checks the length).
    pub layouts: Vec<FieldLayout>,
    /// std140 byte offset per field fixed by the GLSL `offset`/`align` qualifiers of
    /// a uniform block (GLSL 4.40 §4.4.5, printed `@N` before the field): empty (the
    /// offsets follow the std140 rules) or one entry per field.
    pub offsets: Vec<u32>,
}

impl StructDef {
    /// A struct whose fields all inherit their matrix layout.
    pub fn new(name: String, fields: Vec<(String, Type)>) -> StructDef {
        StructDef {
            name,
            fields,
            layouts: Vec::new(),
            offsets: Vec::new(),
        }
    }
    /// The explicit std140 offset of field `i`, if the struct has them.
    pub fn explicit_offset(&self, i: usize) -> Option<u32> {
        self.offsets.get(i).copied()
    }
    /// Matrix layout of field `i`.
    pub fn layout(&self, i: usize) -> FieldLayout {
        self.layouts.get(i).copied().unwrap_or_default()
    }
    /// Whether matrices under field `i` are row-major when the struct itself is laid
    /// out with enclosing layout `outer`.
    pub fn field_row_major(&self, i: usize, outer: bool) -> bool {
        self.layout(i).row_major(outer)
    }
}

impl Type {
    /// Element type of an array, column type of a matrix, component of a vector.
    pub fn element(&self) -> Option<Type> {
        match self {
            Type::Array(e, _) => Some((**e).clone()),
            Type::Matrix { rows, .. } => Some(Type::Vector(BaseType::Float, *rows)),
            Type::Vector(b, _) => Some(Type::Scalar(*b)),
            _ => None,
        }
    }
    /// Innermost elements of a (possibly multi-dimensional) array, 1 for a
    /// non-array: how many blocks an element of a block instance array spans
    /// (GL 4.3 §7.3.1.1 numbers arrays of arrays of blocks in row-major order).
    pub fn flattened_array_len(&self) -> u32 {
        match self {
            Type::Array(e, n) => n.saturating_mul(e.flattened_array_len()),
            _ => 1,
        }
    }
    /// Number of components of a scalar/vector (1 for scalars); None otherwise.
    pub fn vector_components(&self) -> Option<u8> {
        match self {
            Type::Scalar(_) => Some(1),
            Type::Vector(_, n) => Some(*n),
            _ => None,
        }
    }
    /// Bit size of a scalar/vector value of this type as NIR holds it (bools are 1-bit).
    pub fn bit_size(&self) -> Option<u8> {
        match self {
            Type::Scalar(BaseType::Bool) | Type::Vector(BaseType::Bool, _) => Some(1),
            Type::Scalar(_) | Type::Vector(..) => Some(32),
            _ => None,
        }
    }
    /// Writes the GLSL spelling, resolving struct names through `structs`.
    pub fn write(&self, structs: &[StructDef], out: &mut impl fmt::Write) -> fmt::Result {
        match self {
            Type::Scalar(b) => out.write_str(scalar_name(*b)),
            Type::Vector(b, n) => write!(out, "{}vec{}", vec_prefix(*b), n),
            Type::Matrix { columns, rows } if columns == rows => write!(out, "mat{columns}"),
            Type::Matrix { columns, rows } => write!(out, "mat{columns}x{rows}"),
            Type::Array(..) => {
                // GLSL order, as Mesa's glsl_type names: outermost dimension
                // first (`float[3][2]` is 3 arrays of 2 floats).
                let mut dims = Vec::new();
                let mut t = self;
                while let Type::Array(e, n) = t {
                    dims.push(*n);
                    t = e;
                }
                t.write(structs, out)?;
                for n in dims {
                    if n == 0 {
                        out.write_str("[]")?;
                    } else {
                        write!(out, "[{n}]")?;
                    }
                }
                Ok(())
            }
            Type::Struct(id) => match structs.get(id.index()) {
                Some(s) => out.write_str(&s.name),
                None => write!(out, "<bad {id}>"),
            },
            Type::Sampler {
                base,
                dim,
                array,
                shadow,
            } => {
                write!(out, "{}sampler{}", vec_prefix(*base), dim.glsl())?;
                if *array {
                    out.write_str("Array")?;
                }
                if *shadow {
                    out.write_str("Shadow")?;
                }
                Ok(())
            }
            Type::Image { base, dim, array } => {
                write!(out, "{}image{}", vec_prefix(*base), dim.glsl())?;
                if *array {
                    out.write_str("Array")?;
                }
                Ok(())
            }
        }
    }
    /// Parses a type spelling (`vec4`, `mat3x2`, `float[4][2]`, `sampler2DShadow`, a
    /// struct name).
    pub fn parse(text: &str, structs: &[StructDef]) -> Option<Type> {
        let (head, dims) = match text.find('[') {
            Some(p) => (&text[..p], &text[p..]),
            None => (text, ""),
        };
        let mut ty = parse_base(head, structs)?;
        // Dimensions are written outermost first (`float[4][2]`: 4 arrays of 2), so
        // they are applied innermost first.
        let mut lens = Vec::new();
        let mut rest = dims;
        let mut count = 0;
        while !rest.is_empty() {
            count += 1;
            if count > MAX_ARRAY_DIMS {
                return None;
            }
            let close = rest.find(']')?;
            if !rest.starts_with('[') {
                return None;
            }
            let num = &rest[1..close];
            lens.push(if num.is_empty() { 0 } else { num.parse().ok()? });
            rest = &rest[close + 1..];
        }
        for len in lens.into_iter().rev() {
            ty = Type::Array(Box::new(ty), len);
        }
        Some(ty)
    }
}

fn scalar_name(b: BaseType) -> &'static str {
    match b {
        BaseType::Float => "float",
        BaseType::Int => "int",
        BaseType::Uint => "uint",
        BaseType::Bool => "bool",
    }
}

fn vec_prefix(b: BaseType) -> &'static str {
    match b {
        BaseType::Float => "",
        BaseType::Int => "i",
        BaseType::Uint => "u",
        BaseType::Bool => "b",
    }
}

fn parse_base(s: &str, structs: &[StructDef]) -> Option<Type> {
    for b in [
        BaseType::Float,
        BaseType::Int,
        BaseType::Uint,
        BaseType::Bool,
    ] {
        if s == scalar_name(b) {
            return Some(Type::Scalar(b));
        }
        if let Some(n) = s
            .strip_prefix(vec_prefix(b))
            .and_then(|r| r.strip_prefix("vec"))
        {
            return match n {
                "2" | "3" | "4" => Some(Type::Vector(b, n.as_bytes()[0] - b'0')),
                _ => None,
            };
        }
    }
    if let Some(m) = s.strip_prefix("mat") {
        let digit = |c: u8| (b'2'..=b'4').contains(&c).then_some(c - b'0');
        let bytes = m.as_bytes();
        return match bytes {
            [c] => digit(*c).map(|n| Type::Matrix {
                columns: n,
                rows: n,
            }),
            [c, b'x', r] => Some(Type::Matrix {
                columns: digit(*c)?,
                rows: digit(*r)?,
            }),
            _ => None,
        };
    }
    for b in [BaseType::Float, BaseType::Int, BaseType::Uint] {
        if let Some(r) = s
            .strip_prefix(vec_prefix(b))
            .and_then(|r| r.strip_prefix("image"))
        {
            let (dim, r) = parse_dim(r)?;
            let (array, r) = match r.strip_prefix("Array") {
                Some(rest) => (true, rest),
                None => (false, r),
            };
            return r.is_empty().then_some(Type::Image {
                base: b,
                dim,
                array,
            });
        }
        if let Some(mut r) = s
            .strip_prefix(vec_prefix(b))
            .and_then(|r| r.strip_prefix("sampler"))
        {
            let mut dim = None;
            // Longest names first so "2DRect"/"2DMS" win over "2D".
            let mut order: Vec<SamplerDim> = SamplerDim::ALL.iter().map(|(d, _)| *d).collect();
            order.sort_by_key(|d| std::cmp::Reverse(d.glsl().len()));
            for d in order {
                if let Some(rest) = r.strip_prefix(d.glsl()) {
                    dim = Some(d);
                    r = rest;
                    break;
                }
            }
            let dim = dim?;
            let array = if let Some(rest) = r.strip_prefix("Array") {
                r = rest;
                true
            } else {
                false
            };
            let shadow = if let Some(rest) = r.strip_prefix("Shadow") {
                r = rest;
                true
            } else {
                false
            };
            return r.is_empty().then_some(Type::Sampler {
                base: b,
                dim,
                array,
                shadow,
            });
        }
    }
    structs
        .iter()
        .position(|st| st.name == s)
        .map(|i| Type::Struct(StructId::new(i)))
}

/// The dimension spelled at the start of `r` (longest names first, so
/// "2DRect"/"2DMS" win over "2D") and the rest.
fn parse_dim(r: &str) -> Option<(SamplerDim, &str)> {
    let mut order: Vec<SamplerDim> = SamplerDim::ALL.iter().map(|(d, _)| *d).collect();
    order.sort_by_key(|d| std::cmp::Reverse(d.glsl().len()));
    order
        .into_iter()
        .find_map(|d| r.strip_prefix(d.glsl()).map(|rest| (d, rest)))
}

/// Deepest struct/array nesting the size helpers follow (a struct table that refers
/// to itself, or hostile nesting, gives `None` instead of unbounded recursion).
pub const MAX_TYPE_NESTING: u32 = 64;

/// Layout helpers shared by IO lowering, the linker and the evaluator.
impl Type {
    /// Mesa's `type_size_vec4` (`glsl_count_vec4_slots` for non-bindless GL): one slot
    /// per scalar/vector, per matrix column and per array element, struct fields in
    /// order, 0 for samplers. `None` when the type nests deeper than
    /// [`MAX_TYPE_NESTING`] or the size overflows `u32`.
    pub fn type_size_vec4(&self, structs: &[StructDef]) -> Option<u32> {
        self.vec4_slots(structs, 0)
    }

    fn vec4_slots(&self, structs: &[StructDef], depth: u32) -> Option<u32> {
        if depth > MAX_TYPE_NESTING {
            return None;
        }
        match self {
            Type::Scalar(_) | Type::Vector(..) => Some(1),
            Type::Matrix { columns, .. } => Some(u32::from(*columns)),
            Type::Array(e, n) => e.vec4_slots(structs, depth + 1)?.checked_mul(*n),
            Type::Struct(id) => {
                let st = structs.get(id.index())?;
                st.fields.iter().try_fold(0u32, |acc, (_, t)| {
                    acc.checked_add(t.vec4_slots(structs, depth + 1)?)
                })
            }
            Type::Sampler { .. } | Type::Image { .. } => Some(0),
        }
    }

    /// std140 base alignment and size in bytes; `row_major` is the enclosing matrix
    /// layout (struct fields may override it, see [`FieldLayout`]): a column-major
    /// `CxR` matrix takes `C` 16-byte vectors, a row-major one `R`. Booleans are 4
    /// bytes; samplers take no space. `None` on overflow or excessive nesting.
    pub fn std140_align_size(&self, structs: &[StructDef], row_major: bool) -> Option<(u32, u32)> {
        self.packed_align_size(structs, row_major, Packing::Std140)
    }

    /// Base alignment and size in bytes under `packing` (GL 4.6 §7.6.2.2, rules 1–10;
    /// std430 drops the rounding of array and struct alignments to 16).
    pub fn packed_align_size(
        &self,
        structs: &[StructDef],
        row_major: bool,
        packing: Packing,
    ) -> Option<(u32, u32)> {
        self.packed(structs, 0, row_major, packing)
    }

    fn packed(
        &self,
        structs: &[StructDef],
        depth: u32,
        rm: bool,
        p: Packing,
    ) -> Option<(u32, u32)> {
        if depth > MAX_TYPE_NESTING {
            return None;
        }
        let round = |v: u32, a: u32| -> Option<u32> { v.checked_add(a - 1).map(|x| x / a * a) };
        match self {
            Type::Scalar(_) => Some((4, 4)),
            Type::Vector(_, n) => Some((if *n == 2 { 8 } else { 16 }, 4 * u32::from(*n))),
            Type::Matrix { columns, rows } => {
                let vectors = if rm { *rows } else { *columns };
                let stride = matrix_vector_stride(*columns, *rows, rm, p);
                Some((stride, stride * u32::from(vectors)))
            }
            Type::Array(e, n) => {
                let stride = self.array_stride(structs, depth, rm, p)?;
                let (a, _) = e.packed(structs, depth + 1, rm, p)?;
                Some((p.round_align(a), stride.checked_mul(*n)?))
            }
            Type::Struct(id) => {
                let st = structs.get(id.index())?;
                let mut offset = 0u32;
                let mut align = p.round_align(4);
                for (i, (_, t)) in st.fields.iter().enumerate() {
                    let (a, s) = t.packed(structs, depth + 1, st.field_row_major(i, rm), p)?;
                    align = align.max(a);
                    let start = match st.explicit_offset(i) {
                        Some(o) => o,
                        None => round(offset, a)?,
                    };
                    offset = start.checked_add(s)?;
                }
                Some((align, round(offset, align)?))
            }
            Type::Sampler { .. } | Type::Image { .. } => Some((4, 0)),
        }
    }

    /// std140 stride in bytes between consecutive elements of an array (the element
    /// size rounded up to a multiple of 16), or between the columns of a matrix (16
    /// column-major, 4 row-major). `row_major` is the enclosing matrix layout. `None`
    /// for other types.
    pub fn std140_array_stride(&self, structs: &[StructDef], row_major: bool) -> Option<u32> {
        self.array_stride(structs, 0, row_major, Packing::Std140)
    }

    /// [`Type::std140_array_stride`] under `packing`: std430 rounds an array
    /// element only to its own alignment.
    pub fn packed_array_stride(
        &self,
        structs: &[StructDef],
        row_major: bool,
        packing: Packing,
    ) -> Option<u32> {
        self.array_stride(structs, 0, row_major, packing)
    }

    fn array_stride(&self, structs: &[StructDef], depth: u32, rm: bool, p: Packing) -> Option<u32> {
        match self {
            Type::Array(e, _) => {
                let (a, s) = e.packed(structs, depth + 1, rm, p)?;
                let a = p.round_align(a);
                s.checked_add(a - 1).map(|x| x / a * a)
            }
            Type::Matrix { columns, rows } => Some(if rm {
                4
            } else {
                matrix_vector_stride(*columns, *rows, rm, p)
            }),
            _ => None,
        }
    }

    /// std140 byte offset of field `field` of a struct type laid out with enclosing
    /// matrix layout `row_major`.
    pub fn std140_field_offset(
        &self,
        structs: &[StructDef],
        field: usize,
        row_major: bool,
    ) -> Option<u32> {
        self.packed_field_offset(structs, field, row_major, Packing::Std140)
    }

    /// Byte offset of field `field` of a struct type under `packing`.
    pub fn packed_field_offset(
        &self,
        structs: &[StructDef],
        field: usize,
        row_major: bool,
        packing: Packing,
    ) -> Option<u32> {
        let Type::Struct(id) = self else { return None };
        let st = structs.get(id.index())?;
        let mut offset = 0u32;
        for (i, (_, t)) in st.fields.iter().enumerate() {
            let (a, s) = t.packed(structs, 1, st.field_row_major(i, row_major), packing)?;
            offset = match st.explicit_offset(i) {
                Some(o) => o,
                None => offset.checked_add(a - 1)? / a * a,
            };
            if i == field {
                return Some(offset);
            }
            offset = offset.checked_add(s)?;
        }
        None
    }
}

/// Byte distance between the stored vectors of a `columns`x`rows` matrix: its
/// columns (column-major) or rows (row-major), each laid out as an array element of
/// that vector type (GL 4.6 §7.6.2.2 rules 5 and 7): 16 under std140, the vector's
/// alignment under std430 (8 for 2-component vectors).
pub fn matrix_vector_stride(columns: u8, rows: u8, row_major: bool, packing: Packing) -> u32 {
    let len = if row_major { columns } else { rows };
    let align = if len == 2 { 8 } else { 16 };
    packing.round_align(align)
}

/// Memory layout of a uniform or storage block (GLSL `std140` / `std430`; `shared`
/// and `packed` blocks are laid out std140 in rgl).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Packing {
    /// GL 4.6 §7.6.2.2 std140: array and struct alignments round up to 16.
    #[default]
    Std140,
    /// std430 (storage blocks and shared memory only): no rounding to 16.
    Std430,
}

impl Packing {
    /// The alignment of an array element or a struct with members of alignment
    /// `align`: rounded up to 16 under std140.
    pub fn round_align(self, align: u32) -> u32 {
        match self {
            Packing::Std140 => align.max(16),
            Packing::Std430 => align,
        }
    }
}
