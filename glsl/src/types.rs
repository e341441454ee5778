//! The GLSL type system shared by the checker, the IR and later stages:
//! scalars, vectors, matrices, samplers, arrays and structs. Struct bodies live in
//! a per-module [`StructArena`]; a [`Type`] refers to them by handle, so two
//! structs with the same name in different scopes stay distinct.

use std::fmt;

use crate::arena::{Arena, Handle};

/// Base kind of a scalar, vector or matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScalarKind {
    /// 32-bit float.
    Float,
    /// 32-bit signed integer.
    Int,
    /// 32-bit unsigned integer (GLSL 1.30+ / ES 3.00).
    Uint,
    /// Boolean.
    Bool,
}

impl ScalarKind {
    /// Name of the scalar type (`float`, `int`, `uint`, `bool`).
    pub fn name(self) -> &'static str {
        match self {
            ScalarKind::Float => "float",
            ScalarKind::Int => "int",
            ScalarKind::Uint => "uint",
            ScalarKind::Bool => "bool",
        }
    }
    /// Prefix of the vector type names (`vec`, `ivec`, `uvec`, `bvec`).
    pub fn vector_prefix(self) -> &'static str {
        match self {
            ScalarKind::Float => "",
            ScalarKind::Int => "i",
            ScalarKind::Uint => "u",
            ScalarKind::Bool => "b",
        }
    }
    /// True for `int` and `uint`.
    pub fn is_integer(self) -> bool {
        matches!(self, ScalarKind::Int | ScalarKind::Uint)
    }
    /// True for `float`, `int` and `uint`.
    pub fn is_numeric(self) -> bool {
        self != ScalarKind::Bool
    }
}

/// Dimensionality of a sampler.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SamplerDim {
    /// `sampler1D`
    D1,
    /// `sampler2D`
    D2,
    /// `sampler3D`
    D3,
    /// `samplerCube`
    Cube,
    /// `sampler2DRect`
    Rect,
    /// `samplerBuffer`
    Buffer,
    /// `sampler2DMS`
    Ms,
    /// `samplerExternalOES`
    External,
}

impl SamplerDim {
    /// Number of coordinate components before the array layer.
    pub fn coord_components(self) -> u8 {
        match self {
            SamplerDim::D1 | SamplerDim::Buffer => 1,
            SamplerDim::D2 | SamplerDim::Rect | SamplerDim::Ms | SamplerDim::External => 2,
            SamplerDim::D3 | SamplerDim::Cube => 3,
        }
    }
}

/// A combined texture+sampler type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SamplerType {
    /// Dimensionality.
    pub dim: SamplerDim,
    /// Array sampler (`sampler2DArray`).
    pub arrayed: bool,
    /// Depth-comparison sampler (`sampler2DShadow`).
    pub shadow: bool,
    /// Type of the returned texel components (`Float`, `Int` or `Uint`).
    pub kind: ScalarKind,
}

impl SamplerType {
    /// GLSL spelling, e.g. `isampler2DArray`, `sampler2DRectShadow`.
    pub fn name(self) -> String {
        let prefix = match self.kind {
            ScalarKind::Int => "i",
            ScalarKind::Uint => "u",
            _ => "",
        };
        let dim = match self.dim {
            SamplerDim::D1 => "1D",
            SamplerDim::D2 => "2D",
            SamplerDim::D3 => "3D",
            SamplerDim::Cube => "Cube",
            SamplerDim::Rect => "2DRect",
            SamplerDim::Buffer => "Buffer",
            SamplerDim::Ms => "2DMS",
            SamplerDim::External => "ExternalOES",
        };
        format!(
            "{prefix}sampler{dim}{}{}",
            if self.arrayed { "Array" } else { "" },
            if self.shadow { "Shadow" } else { "" }
        )
    }
}

/// An image type (GLSL 4.20 §4.1.7.2): a single level of a texture read
/// and written through the §8.12 image functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ImageType {
    /// Dimensionality (`External` never occurs).
    pub dim: SamplerDim,
    /// Array image (`image2DArray`).
    pub arrayed: bool,
    /// Type of the texel components (`Float`, `Int` or `Uint`).
    pub kind: ScalarKind,
}

impl ImageType {
    /// GLSL spelling, e.g. `uimage2DArray`.
    pub fn name(self) -> String {
        let sampler = SamplerType {
            dim: self.dim,
            arrayed: self.arrayed,
            shadow: false,
            kind: self.kind,
        };
        sampler.name().replacen("sampler", "image", 1)
    }

    /// Components of the integer coordinate of the image functions: the
    /// dimension's coordinates plus the layer (cube images address a face
    /// as the third coordinate, cube arrays `layer * 6 + face` there too;
    /// §8.12).
    pub fn coord_components(self) -> u8 {
        match self.dim {
            SamplerDim::Cube => 3,
            _ => self.dim.coord_components() + u8::from(self.arrayed),
        }
    }

    /// Components of `imageSize`'s result (§8.12): cube images report the
    /// face size only, cube arrays add the layer count.
    pub fn size_components(self) -> u8 {
        match self.dim {
            SamplerDim::Cube => 2 + u8::from(self.arrayed),
            _ => self.coord_components(),
        }
    }
}

/// One member of a struct or interface block.
#[derive(Clone, Debug, PartialEq)]
pub struct StructField {
    /// Member name.
    pub name: String,
    /// Member type.
    pub ty: Type,
    /// Interpolation/precision/layout details that blocks carry per member.
    pub qualifiers: crate::hir::MemberQualifiers,
}

/// A struct or interface-block type body.
#[derive(Clone, Debug, PartialEq)]
pub struct StructType {
    /// Declared name (`S`, or the block name for an interface block).
    pub name: String,
    /// Members in declaration order.
    pub fields: Vec<StructField>,
    /// True for an interface block type rather than a user struct.
    pub is_interface: bool,
}

/// Storage for struct bodies.
pub type StructArena = Arena<StructType>;

/// A GLSL type.
///
/// `Array(_, None)` is an unsized array; it is legal only where the spec allows
/// implicit sizing (a declaration later sized by an initializer or by indexing, or
/// `gl_TexCoord[]`-style built-ins).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    /// `void`, only as a function return type.
    Void,
    /// A scalar.
    Scalar(ScalarKind),
    /// A vector of 2–4 components.
    Vector(ScalarKind, u8),
    /// A float matrix with `columns` columns of `rows` rows (2–4 each).
    Matrix {
        /// Number of column vectors.
        columns: u8,
        /// Components per column.
        rows: u8,
    },
    /// An opaque sampler.
    Sampler(SamplerType),
    /// An opaque image (GLSL 4.20 §4.1.7.2).
    Image(ImageType),
    /// `atomic_uint`, an opaque atomic counter (GLSL 4.20 §4.1.7.1): a 4-byte
    /// counter at `layout(offset)` in the atomic counter buffer bound at
    /// `layout(binding)` (see `hir::Variable::binding` / `atomic_offset`).
    AtomicUint,
    /// A struct or interface block.
    Struct(Handle<StructType>),
    /// An array; `None` length is unsized.
    Array(Box<Type>, Option<u32>),
    /// The type of an expression that already produced an error; it converts to
    /// everything so one mistake does not cascade into more diagnostics.
    Error,
}

impl Type {
    /// `float`
    pub const FLOAT: Type = Type::Scalar(ScalarKind::Float);
    /// `int`
    pub const INT: Type = Type::Scalar(ScalarKind::Int);
    /// `uint`
    pub const UINT: Type = Type::Scalar(ScalarKind::Uint);
    /// `bool`
    pub const BOOL: Type = Type::Scalar(ScalarKind::Bool);

    /// Scalar for 1 component, vector otherwise.
    pub fn vec(kind: ScalarKind, components: u8) -> Type {
        if components == 1 {
            Type::Scalar(kind)
        } else {
            Type::Vector(kind, components)
        }
    }
    /// `matCxR`.
    pub fn mat(columns: u8, rows: u8) -> Type {
        Type::Matrix { columns, rows }
    }
    /// Base scalar kind of a scalar, vector or matrix.
    pub fn scalar_kind(&self) -> Option<ScalarKind> {
        match *self {
            Type::Scalar(k) | Type::Vector(k, _) => Some(k),
            Type::Matrix { .. } => Some(ScalarKind::Float),
            _ => None,
        }
    }
    /// Vector width: 1 for scalars, N for vectors, rows for matrices.
    pub fn vector_elements(&self) -> u8 {
        match *self {
            Type::Scalar(_) => 1,
            Type::Vector(_, n) => n,
            Type::Matrix { rows, .. } => rows,
            _ => 0,
        }
    }
    /// Number of columns: 1 for scalars/vectors, C for matrices.
    pub fn matrix_columns(&self) -> u8 {
        match *self {
            Type::Matrix { columns, .. } => columns,
            Type::Scalar(_) | Type::Vector(..) => 1,
            _ => 0,
        }
    }
    /// Total scalar components of a scalar, vector or matrix.
    pub fn components(&self) -> u32 {
        self.vector_elements() as u32 * self.matrix_columns() as u32
    }
    /// True for scalars.
    pub fn is_scalar(&self) -> bool {
        matches!(self, Type::Scalar(_))
    }
    /// True for vectors.
    pub fn is_vector(&self) -> bool {
        matches!(self, Type::Vector(..))
    }
    /// True for matrices.
    pub fn is_matrix(&self) -> bool {
        matches!(self, Type::Matrix { .. })
    }
    /// True for arrays.
    pub fn is_array(&self) -> bool {
        matches!(self, Type::Array(..))
    }
    /// True for scalars, vectors and matrices.
    pub fn is_numeric_or_bool(&self) -> bool {
        matches!(
            self,
            Type::Scalar(_) | Type::Vector(..) | Type::Matrix { .. }
        )
    }
    /// True for samplers.
    pub fn is_sampler(&self) -> bool {
        matches!(self, Type::Sampler(_))
    }
    /// True for `atomic_uint`.
    pub fn is_atomic_uint(&self) -> bool {
        matches!(self, Type::AtomicUint)
    }
    /// True for images.
    pub fn is_image(&self) -> bool {
        matches!(self, Type::Image(_))
    }
    /// True for the opaque types (samplers, images and atomic counters).
    pub fn is_opaque(&self) -> bool {
        matches!(self, Type::Sampler(_) | Type::Image(_) | Type::AtomicUint)
    }
    /// True if the type contains an image anywhere (structs and arrays included).
    pub fn contains_image(&self, structs: &StructArena) -> bool {
        match self {
            Type::Image(_) => true,
            Type::Array(elem, _) => elem.contains_image(structs),
            Type::Struct(h) => structs
                .get(*h)
                .is_some_and(|s| s.fields.iter().any(|f| f.ty.contains_image(structs))),
            _ => false,
        }
    }
    /// True if the type contains an opaque type anywhere (structs and arrays
    /// included): the GLSL 4.20 §4.1.7 rules for opaque types apply to it.
    pub fn contains_opaque(&self, structs: &StructArena) -> bool {
        match self {
            Type::Sampler(_) | Type::Image(_) | Type::AtomicUint => true,
            Type::Array(elem, _) => elem.contains_opaque(structs),
            Type::Struct(h) => structs
                .get(*h)
                .is_some_and(|s| s.fields.iter().any(|f| f.ty.contains_opaque(structs))),
            _ => false,
        }
    }
    /// True if the type contains an atomic counter anywhere.
    pub fn contains_atomic(&self, structs: &StructArena) -> bool {
        match self {
            Type::AtomicUint => true,
            Type::Array(elem, _) => elem.contains_atomic(structs),
            Type::Struct(h) => structs
                .get(*h)
                .is_some_and(|s| s.fields.iter().any(|f| f.ty.contains_atomic(structs))),
            _ => false,
        }
    }
    /// Bytes of atomic counter buffer storage an `atomic_uint` or array of
    /// them occupies (4 per counter; Mesa's `glsl_type::atomic_size`), 0 for
    /// other types.
    pub fn atomic_size(&self) -> u32 {
        match self {
            Type::AtomicUint => 4,
            Type::Array(elem, len) => elem.atomic_size().saturating_mul(len.unwrap_or(0)),
            _ => 0,
        }
    }
    /// True for the error type.
    pub fn is_error(&self) -> bool {
        matches!(self, Type::Error)
    }
    /// True if the type contains a sampler anywhere (structs and arrays included).
    pub fn contains_sampler(&self, structs: &StructArena) -> bool {
        match self {
            Type::Sampler(_) => true,
            Type::Array(elem, _) => elem.contains_sampler(structs),
            Type::Struct(h) => structs
                .get(*h)
                .is_some_and(|s| s.fields.iter().any(|f| f.ty.contains_sampler(structs))),
            _ => false,
        }
    }
    /// True if the type contains an array anywhere.
    pub fn contains_array(&self, structs: &StructArena) -> bool {
        match self {
            Type::Array(..) => true,
            Type::Struct(h) => structs
                .get(*h)
                .is_some_and(|s| s.fields.iter().any(|f| f.ty.contains_array(structs))),
            _ => false,
        }
    }
    /// Element type of an array, column type of a matrix, scalar of a vector.
    pub fn index_result(&self) -> Option<Type> {
        match self {
            Type::Array(elem, _) => Some((**elem).clone()),
            Type::Matrix { rows, .. } => Some(Type::Vector(ScalarKind::Float, *rows)),
            Type::Vector(kind, _) => Some(Type::Scalar(*kind)),
            _ => None,
        }
    }
    /// Array length, when sized.
    pub fn array_len(&self) -> Option<u32> {
        match self {
            Type::Array(_, len) => *len,
            _ => None,
        }
    }
    /// Same shape with a different base kind (`vec3` → `ivec3`).
    pub fn with_kind(&self, kind: ScalarKind) -> Type {
        match *self {
            Type::Scalar(_) => Type::Scalar(kind),
            Type::Vector(_, n) => Type::Vector(kind, n),
            ref other => other.clone(),
        }
    }
    /// Number of vec4 slots the type occupies as a varying or attribute.
    pub fn count_vec4_slots(&self, structs: &StructArena) -> u32 {
        match self {
            Type::Scalar(_) | Type::Vector(..) => 1,
            Type::Matrix { columns, .. } => *columns as u32,
            Type::Array(elem, len) => elem
                .count_vec4_slots(structs)
                .saturating_mul(len.unwrap_or(0)),
            Type::Struct(h) => structs
                .get(*h)
                .map(|s| {
                    s.fields
                        .iter()
                        .map(|f| f.ty.count_vec4_slots(structs))
                        .sum()
                })
                .unwrap_or(0),
            Type::Sampler(_) | Type::Image(_) | Type::AtomicUint => 1,
            Type::Void | Type::Error => 0,
        }
    }
    /// Displays with struct names resolved.
    pub fn display<'a>(&'a self, structs: &'a StructArena) -> TypeDisplay<'a> {
        TypeDisplay { ty: self, structs }
    }
}

/// [`Type`] printed as GLSL spells it (`vec4`, `float[3]`, `S`).
pub struct TypeDisplay<'a> {
    ty: &'a Type,
    structs: &'a StructArena,
}

impl fmt::Display for TypeDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ty {
            Type::Void => f.write_str("void"),
            Type::Scalar(k) => f.write_str(k.name()),
            Type::Vector(k, n) => write!(f, "{}vec{}", k.vector_prefix(), n),
            Type::Matrix { columns, rows } if columns == rows => write!(f, "mat{columns}"),
            Type::Matrix { columns, rows } => write!(f, "mat{columns}x{rows}"),
            Type::Sampler(s) => f.write_str(&s.name()),
            Type::Image(i) => f.write_str(&i.name()),
            Type::AtomicUint => f.write_str("atomic_uint"),
            Type::Struct(h) => match self.structs.get(*h) {
                Some(s) => f.write_str(&s.name),
                None => f.write_str("<struct>"),
            },
            Type::Array(elem, len) => {
                write!(f, "{}", elem.display(self.structs))?;
                match len {
                    Some(n) => write!(f, "[{n}]"),
                    None => write!(f, "[]"),
                }
            }
            Type::Error => f.write_str("error"),
        }
    }
}
