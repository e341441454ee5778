//! GLSL types → NIR types (struct declarations into `Shader::structs`, with unique
//! names so the printed shader reads back), and GLSL IR constants → `load_const`
//! values and flattened variable initializers.

use rgl_glsl::hir::{Constant, MatrixLayout, ScalarValue};
use rgl_glsl::types::{SamplerDim as GDim, ScalarKind, Type as GType};
use rgl_nir::ir::{BaseType, Def, FieldLayout, SamplerDim, StructDef, StructId, Type};
use rgl_nir::opcodes::{AluType, Base};

use super::{invalid, unsupported, Conv, Res};

/// Most scalars a constant may flatten to (bounds memory on hostile input).
const MAX_CONSTANT_WORDS: usize = 1 << 22;

pub(crate) fn base_of(k: ScalarKind) -> BaseType {
    match k {
        ScalarKind::Float => BaseType::Float,
        ScalarKind::Int => BaseType::Int,
        ScalarKind::Uint => BaseType::Uint,
        ScalarKind::Bool => BaseType::Bool,
    }
}

pub(crate) fn alu_type_of(k: BaseType) -> AluType {
    let base = match k {
        BaseType::Float => Base::Float,
        BaseType::Int => Base::Int,
        BaseType::Uint => Base::Uint,
        BaseType::Bool => Base::Bool,
    };
    AluType { base, bits: 32 }
}

pub(crate) fn dim_of(d: GDim) -> SamplerDim {
    match d {
        GDim::D1 => SamplerDim::D1,
        GDim::D2 => SamplerDim::D2,
        GDim::D3 => SamplerDim::D3,
        GDim::Cube => SamplerDim::Cube,
        GDim::Rect => SamplerDim::Rect,
        GDim::Buffer => SamplerDim::Buf,
        GDim::Ms => SamplerDim::Ms,
        GDim::External => SamplerDim::External,
    }
}

/// True when a NIR type contains an opaque type (a sampler or an image) anywhere.
pub(crate) fn contains_sampler(structs: &[StructDef], ty: &Type, depth: u32) -> bool {
    if depth > 64 {
        return false;
    }
    match ty {
        Type::Sampler { .. } | Type::Image { .. } => true,
        Type::Array(e, _) => contains_sampler(structs, e, depth + 1),
        Type::Struct(id) => structs
            .get(rgl_nir::arena::EntityRef::index(*id))
            .is_some_and(|s| {
                s.fields
                    .iter()
                    .any(|(_, t)| contains_sampler(structs, t, depth + 1))
            }),
        _ => false,
    }
}

impl Conv<'_> {
    /// The NIR type of a GLSL type. Unsized arrays become `T[0]`.
    pub(crate) fn ty(&mut self, t: &GType) -> Res<Type> {
        self.ty_depth(t, 0)
    }

    fn ty_depth(&mut self, t: &GType, depth: u32) -> Res<Type> {
        if depth > 64 {
            return invalid("type nesting deeper than 64");
        }
        Ok(match t {
            GType::Scalar(k) => Type::Scalar(base_of(*k)),
            GType::Vector(k, n) => Type::Vector(base_of(*k), *n),
            GType::Matrix { columns, rows } => Type::Matrix {
                columns: *columns,
                rows: *rows,
            },
            GType::Sampler(s) => Type::Sampler {
                base: base_of(s.kind),
                dim: dim_of(s.dim),
                array: s.arrayed,
                shadow: s.shadow,
            },
            GType::Array(e, n) => {
                Type::Array(Box::new(self.ty_depth(e, depth + 1)?), n.unwrap_or(0))
            }
            GType::Struct(h) => Type::Struct(self.struct_id(*h, depth)?),
            GType::Void => return invalid("void value"),
            GType::AtomicUint => {
                return unsupported(
                    "atomic_uint value (atomic counters must be lowered to storage-buffer atomics first)",
                )
            }
            GType::Image(i) => Type::Image {
                base: base_of(i.kind),
                dim: dim_of(i.dim),
                array: i.arrayed,
            },
            GType::Error => return invalid("error type in linked IR"),
        })
    }

    fn struct_id(
        &mut self,
        h: rgl_glsl::arena::Handle<rgl_glsl::types::StructType>,
        depth: u32,
    ) -> Res<StructId> {
        if let Some(id) = self.structs.get(&h) {
            return Ok(*id);
        }
        let Some(st) = self.m.structs.get(h) else {
            return invalid("struct handle out of range");
        };
        let mut fields = Vec::with_capacity(st.fields.len());
        let mut layouts = Vec::with_capacity(st.fields.len());
        for f in &st.fields {
            fields.push((f.name.clone(), self.ty_depth(&f.ty, depth + 1)?));
            layouts.push(match f.qualifiers.matrix_layout {
                MatrixLayout::Inherited => FieldLayout::Inherit,
                MatrixLayout::ColumnMajor => FieldLayout::ColumnMajor,
                MatrixLayout::RowMajor => FieldLayout::RowMajor,
            });
        }
        if layouts.iter().all(|l| *l == FieldLayout::Inherit) {
            layouts.clear();
        }
        // Names must read back: anonymous structs (`#anon_struct`) and any other
        // character outside [A-Za-z0-9_] become `_`; duplicates get a suffix.
        let mut clean: String = st
            .name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        if clean.is_empty() || clean.starts_with(|c: char| c.is_ascii_digit()) {
            clean.insert(0, '_');
        }
        let mut name = clean.clone();
        let mut n = 1;
        while self.struct_names.contains(&name) {
            name = format!("{clean}${n}");
            n += 1;
        }
        self.struct_names.insert(name.clone());
        let id = <StructId as rgl_nir::arena::EntityRef>::new(self.shader.structs.len());
        // GLSL 4.40 §4.4.5: the checker stores every member's std140 offset
        // in a block that uses `offset`/`align`.
        let offsets: Vec<u32> = st
            .fields
            .iter()
            .filter_map(|f| f.qualifiers.offset)
            .collect();
        let offsets = if st.is_interface && offsets.len() == st.fields.len() {
            offsets
        } else {
            Vec::new()
        };
        self.shader.structs.push(StructDef {
            name,
            fields,
            layouts,
            offsets,
        });
        self.structs.insert(h, id);
        Ok(id)
    }

    /// Folds a uniform block's default matrix layout (`layout(row_major) uniform B
    /// {…}`, or a default `layout(row_major) uniform;`, carried by the block's
    /// variables) into the fields of the block's NIR struct `ty` (or array of it) that
    /// inherit theirs, so the NIR type alone says how every member is laid out.
    pub(crate) fn apply_block_layout(&mut self, ty: &Type, layout: MatrixLayout) {
        let mut t = ty;
        while let Type::Array(e, _) = t {
            t = e;
        }
        let (Type::Struct(id), MatrixLayout::RowMajor) = (t, layout) else {
            return;
        };
        let Some(st) = self
            .shader
            .structs
            .get_mut(rgl_nir::arena::EntityRef::index(*id))
        else {
            return;
        };
        st.layouts.resize(st.fields.len(), FieldLayout::Inherit);
        for l in &mut st.layouts {
            if *l == FieldLayout::Inherit {
                *l = FieldLayout::RowMajor;
            }
        }
    }

    /// Fields of a NIR struct type.
    pub(crate) fn struct_fields(&self, id: StructId) -> &[(String, Type)] {
        self.shader
            .structs
            .get(rgl_nir::arena::EntityRef::index(id))
            .map(|s| s.fields.as_slice())
            .unwrap_or(&[])
    }

    /// A `load_const` of a scalar/vector constant (booleans as 1-bit values).
    pub(crate) fn const_value(&mut self, c: &Constant, ty: &GType) -> Res<Def> {
        let Constant::Components(vals) = c else {
            return invalid("aggregate constant used as a value");
        };
        if vals.is_empty() || vals.len() > 4 || ty.is_matrix() {
            return unsupported(format!("constant of {} components as a value", vals.len()));
        }
        let is_bool = ty.scalar_kind() == Some(ScalarKind::Bool);
        let words: Vec<u64> = vals.iter().map(|v| scalar_word(*v)).collect();
        Ok(self.b().load_const(if is_bool { 1 } else { 32 }, words))
    }

    /// Flattens a constant into one 32-bit word per scalar (booleans 0 / 1).
    pub(crate) fn constant_words(&self, c: &Constant) -> Res<Vec<u64>> {
        let mut out = Vec::new();
        let mut stack = vec![c];
        while let Some(c) = stack.pop() {
            match c {
                Constant::Components(v) => out.extend(v.iter().map(|s| scalar_word(*s))),
                Constant::Aggregate(items) => stack.extend(items.iter().rev()),
            }
            if out.len() > MAX_CONSTANT_WORDS {
                return invalid("constant initializer too large");
            }
        }
        Ok(out)
    }
}

fn scalar_word(v: ScalarValue) -> u64 {
    match v {
        ScalarValue::Float(f) => u64::from(f.to_bits()),
        ScalarValue::Int(i) => u64::from(i as u32),
        ScalarValue::Uint(u) => u64::from(u),
        ScalarValue::Bool(b) => u64::from(b),
    }
}
