//! GLSL IR: rgl's typed high-level IR, modelled on Mesa's `ir.h`.
//!
//! A [`Module`] is one compiled shader. Variables, functions, statements and
//! expressions live in arenas and are referred to by handle; source locations sit
//! beside them in [`Module::stmt_locs`] / [`Module::expr_locs`], never inside
//! nodes, so IR equality and hashing ignore positions.
//!
//! Shape rules, as in Mesa:
//! * Expressions ([`Expr`]) are pure trees: constants, dereferences, swizzles,
//!   operations and texture lookups. Calls are statements ([`Stmt::Call`]) that
//!   write their result into a `*_retval` temporary, so a call inside an
//!   expression is hoisted into a statement before it.
//! * Assignments carry a write mask; the left side is a dereference chain rooted
//!   at a variable.
//! * `HIR` is the checker's direct output; `LIR` is what [`crate::lower`] makes of
//!   it (built-ins inlined, matrix ops split, …). Both use these types.

pub mod const_eval;
pub mod image;
pub mod ops;
pub mod print;
pub mod subroutine;

pub use ops::Op;

use crate::arena::{Arena, Handle, HandleVec};
use crate::ast::{Interpolation, Precision};
use crate::span::SourceLoc;
use crate::types::{StructArena, Type};
use crate::version::{Stage, Version};

/// Name of the function holding the global initializers of a unit without `main`
/// (Mesa's `gl_mesa_tmp_*` wrappers). It lives in [`Module::functions`] but not in
/// [`Module::items`], so dumps do not show it; the linker runs its body at the
/// start of the linked `main`.
pub const GLOBAL_INIT_FUNCTION: &str = "__global_initializers";

/// One compiled shader.
#[derive(Clone, Debug, Default)]
pub struct Module {
    /// Language version and profile the shader was compiled as.
    pub version: Option<Version>,
    /// The stage.
    pub stage: Option<Stage>,
    /// Struct and interface-block bodies.
    pub structs: StructArena,
    /// Every variable: globals, locals, parameters and temporaries.
    pub variables: Arena<Variable>,
    /// Functions (user-defined and referenced built-ins), each with its overloads.
    pub functions: Arena<Function>,
    /// Every statement.
    pub stmts: Arena<Stmt>,
    /// Every expression node.
    pub exprs: Arena<Expr>,
    /// Top-level items in order: global declarations, then/among functions.
    pub items: Vec<Item>,
    /// Source location of statements.
    pub stmt_locs: HandleVec<Stmt, SourceLoc>,
    /// Source location of expressions.
    pub expr_locs: HandleVec<Expr, SourceLoc>,
    /// Source location of variable declarations.
    pub var_locs: HandleVec<Variable, SourceLoc>,
    /// Stage-wide layout state (geometry primitives, fragment coordinate layout, …).
    pub layout: ShaderLayout,
    /// Extensions enabled by `#extension` (names as written).
    pub enabled_extensions: Vec<String>,
    /// Globals declared with an initializer, with its value when it is a
    /// constant expression (the linker checks that a global initialized in two
    /// units has equal constant initializers).
    pub initialized_globals: Vec<(Handle<Variable>, Option<Constant>)>,
    /// Subroutine types, functions and uniforms (GLSL 4.00 §6.1.2).
    pub subroutines: subroutine::Subroutines,
}

/// A top-level entry of a module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    /// A global variable declaration.
    Variable(Handle<Variable>),
    /// A function and all its signatures.
    Function(Handle<Function>),
}

/// Stage-wide layout qualifiers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShaderLayout {
    /// `layout(points|lines|lines_adjacency|triangles|triangles_adjacency) in;` (GS).
    pub gs_input_primitive: Option<GsPrimitive>,
    /// `layout(points|line_strip|triangle_strip) out;` (GS).
    pub gs_output_primitive: Option<GsPrimitive>,
    /// `layout(max_vertices = N) out;` (GS).
    pub gs_max_vertices: Option<u32>,
    /// `layout(invocations = N) in;` (GS, 4.00/ARB_gpu_shader5 only).
    pub gs_invocations: Option<u32>,
    /// The current default output stream of a geometry shader, set by
    /// `layout(stream = N) out;` (GLSL 4.00 §4.4.2.1: it "applies to all
    /// subsequent block and variable declarations"; initially 0).
    pub gs_out_stream: u32,
    /// `layout(local_size_x = X, local_size_y = Y, local_size_z = Z) in;`
    /// (compute; an unwritten dimension is 1, GLSL 4.30 §4.4.1.1).
    pub cs_local_size: Option<[u32; 3]>,
    /// `layout(origin_upper_left)` on `gl_FragCoord`.
    pub origin_upper_left: bool,
    /// `layout(pixel_center_integer)` on `gl_FragCoord`.
    pub pixel_center_integer: bool,
    /// `layout(early_fragment_tests) in;`
    pub early_fragment_tests: bool,
    /// `gl_FragCoord` was redeclared (with or without layout qualifiers).
    pub frag_coord_redeclared: bool,
    /// The depth layout of a `gl_FragDepth` redeclaration
    /// (GL_ARB/AMD_conservative_depth, GLSL 4.20 §4.4.2.3); `None` when it
    /// is not redeclared or is redeclared without one.
    pub frag_depth_layout: Option<DepthLayout>,
    /// Members (name, type) of an `out gl_PerVertex { ... };` redeclaration.
    pub per_vertex_out: Option<Vec<(String, crate::types::Type)>>,
    /// Members (name, type) of an `in gl_PerVertex { ... } gl_in[];` redeclaration.
    pub per_vertex_in: Option<Vec<(String, crate::types::Type)>>,
}

/// Conservative-depth layout of `gl_FragDepth` (GL_ARB/AMD_conservative_depth).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DepthLayout {
    /// `depth_any`
    Any,
    /// `depth_greater`
    Greater,
    /// `depth_less`
    Less,
    /// `depth_unchanged`
    Unchanged,
}

/// Geometry shader primitive kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GsPrimitive {
    /// `points`
    Points,
    /// `lines`
    Lines,
    /// `lines_adjacency`
    LinesAdjacency,
    /// `triangles`
    Triangles,
    /// `triangles_adjacency`
    TrianglesAdjacency,
    /// `line_strip`
    LineStrip,
    /// `triangle_strip`
    TriangleStrip,
}

impl GsPrimitive {
    /// Vertices per input primitive (sizes GS input arrays).
    pub fn vertex_count(self) -> u32 {
        match self {
            GsPrimitive::Points => 1,
            GsPrimitive::Lines | GsPrimitive::LineStrip => 2,
            GsPrimitive::LinesAdjacency => 4,
            GsPrimitive::Triangles | GsPrimitive::TriangleStrip => 3,
            GsPrimitive::TrianglesAdjacency => 6,
        }
    }
}

/// Where a variable lives (Mesa's `ir_variable_mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VarMode {
    /// Ordinary global or local (`auto`).
    Auto,
    /// `uniform`
    Uniform,
    /// Stage input (`in`, `attribute`, `varying` in a fragment shader).
    ShaderIn,
    /// Stage output (`out`, `varying` in a vertex shader).
    ShaderOut,
    /// Function parameter `in`.
    FunctionIn,
    /// Function parameter `out`.
    FunctionOut,
    /// Function parameter `inout`.
    FunctionInout,
    /// Function parameter `const in`.
    ConstIn,
    /// System value (`gl_VertexID`, `gl_FrontFacing`, …).
    SystemValue,
    /// Compiler temporary.
    Temporary,
    /// `shared` variable of a compute shader (Mesa's `ir_var_mem_shared`;
    /// GLSL 4.30 §4.3.8).
    Shared,
    /// Buffer variable: a member of a shader storage block (Mesa's
    /// `ir_var_shader_storage`; GLSL 4.30 §4.3.7).
    ShaderStorage,
}

impl VarMode {
    /// The word Mesa's printer uses for the mode (empty for auto).
    pub fn dump_name(self) -> &'static str {
        match self {
            VarMode::Auto => "",
            VarMode::Uniform => "uniform",
            VarMode::ShaderIn => "shader_in",
            VarMode::ShaderOut => "shader_out",
            VarMode::FunctionIn => "in",
            VarMode::FunctionOut => "out",
            VarMode::FunctionInout => "inout",
            VarMode::ConstIn => "const_in",
            VarMode::SystemValue => "sys",
            VarMode::Temporary => "temporary",
            VarMode::Shared => "shared",
            VarMode::ShaderStorage => "shader_storage",
        }
    }
}

/// Block layout for uniform blocks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BlockPacking {
    /// `shared` (the default).
    #[default]
    Shared,
    /// `packed`
    Packed,
    /// `std140`
    Std140,
    /// `std430` (shader storage blocks only, GLSL 4.30 §4.4.5)
    Std430,
}

/// Matrix layout inside blocks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MatrixLayout {
    /// Inherited from the block / default.
    #[default]
    Inherited,
    /// `column_major`
    ColumnMajor,
    /// `row_major`
    RowMajor,
}

/// Per-member qualifiers of structs and interface blocks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MemberQualifiers {
    /// Interpolation of a block member.
    pub interpolation: Option<Interpolation>,
    /// `centroid` on a block member.
    pub centroid: bool,
    /// `invariant` on a block member.
    pub invariant: bool,
    /// `precise` on a block member (GLSL 4.00 §4.7).
    pub precise: bool,
    /// `sample` on a block member (GLSL 4.00 §4.3.6).
    pub sample: bool,
    /// `layout(stream = N)` written on a geometry shader output block member;
    /// it must equal the block's stream (GLSL 4.00 §4.4.2.1).
    pub stream: Option<u32>,
    /// Precision, when written.
    pub precision: Option<Precision>,
    /// `row_major` / `column_major` on a block member.
    pub matrix_layout: MatrixLayout,
    /// `layout(location = N)` on a block member.
    pub location: Option<i32>,
    /// `layout(component = N)` on an in/out block member (GLSL 4.40 §4.4.1).
    pub component: Option<u32>,
    /// Byte offset of a uniform block member. As written (`layout(offset =
    /// N)`) until the checker places the block; for a block that uses
    /// `offset` or `align` (GLSL 4.40 §4.4.5) the checker then stores the
    /// actual std140 offset of every member here, which the linker honours.
    pub offset: Option<u32>,
    /// `layout(align = N)` on a uniform block member, as written.
    pub align: Option<u32>,
    /// `layout(xfb_buffer = N)` on an output block member (GLSL 4.40 §4.4.2.1).
    pub xfb_buffer: Option<u32>,
    /// `layout(xfb_offset = N)` on an output block member.
    pub xfb_offset: Option<u32>,
    /// Memory qualifiers of a buffer variable (GLSL 4.30 §4.10).
    pub memory: MemoryQualifiers,
}

/// GLSL 4.30 §4.10 memory qualifiers of a buffer variable (Mesa's
/// `memory_read_only`, `memory_write_only`, `memory_coherent`,
/// `memory_volatile`, `memory_restrict`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MemoryQualifiers {
    /// `readonly`
    pub read_only: bool,
    /// `writeonly`
    pub write_only: bool,
    /// `coherent`
    pub coherent: bool,
    /// `volatile`
    pub volatile: bool,
    /// `restrict`
    pub restrict: bool,
}

impl MemoryQualifiers {
    /// The union of two sets (a block's qualifiers apply to every member).
    pub fn union(self, other: MemoryQualifiers) -> MemoryQualifiers {
        MemoryQualifiers {
            read_only: self.read_only || other.read_only,
            write_only: self.write_only || other.write_only,
            coherent: self.coherent || other.coherent,
            volatile: self.volatile || other.volatile,
            restrict: self.restrict || other.restrict,
        }
    }
}

/// A variable (Mesa's `ir_variable`).
#[derive(Clone, Debug, PartialEq)]
pub struct Variable {
    /// Source name, or a descriptive temporary name (`vec_ctor`, `f_retval`, …).
    pub name: String,
    /// Its type.
    pub ty: Type,
    /// Storage mode.
    pub mode: VarMode,
    /// `const` variable (its value is in `constant_value`).
    pub read_only: bool,
    /// `centroid`
    pub centroid: bool,
    /// `invariant`
    pub invariant: bool,
    /// `precise` (GLSL 4.00 §4.7, ARB_gpu_shader5): the computations
    /// assigned to it are `exact` in NIR (see `link::to_nir`).
    pub precise: bool,
    /// `sample` auxiliary storage (GLSL 4.00 §4.3.6): per-sample
    /// interpolation. rgl renders single-sampled, where the only sample is
    /// at the pixel centre, so it interpolates like a plain input.
    pub sample: bool,
    /// `layout(stream = N)` of a geometry shader output (GLSL 4.00
    /// §4.4.2.1, ARB_gpu_shader5); 0 for every other variable.
    pub stream: u32,
    /// The `uint` uniform holding a subroutine uniform's selection
    /// ([`subroutine::storage_name`]): not an active uniform of the GL API and
    /// not counted against the default-block component limit.
    pub subroutine_storage: bool,
    /// Interpolation qualifier, if any.
    pub interpolation: Option<Interpolation>,
    /// Precision qualifier, if any (ES, or written explicitly).
    pub precision: Option<Precision>,
    /// `layout(location = N)` (or the fixed slot of a built-in like `gl_Position`).
    pub location: Option<i32>,
    /// `layout(index = N)` for dual-source blending outputs.
    pub index: Option<i32>,
    /// `layout(component = N)` on a shader input or output (GLSL 4.40 §4.4.1).
    pub component: Option<u32>,
    /// `layout(binding = N)` (4.20 / ARB_shading_language_420pack). For an
    /// atomic counter (`atomic_uint` or an array of them) the atomic counter
    /// buffer binding point; always set for counters.
    pub binding: Option<i32>,
    /// Byte offset of an atomic counter (or of element 0 of an array of
    /// counters, elements 4 bytes apart) in the buffer at `binding`, as
    /// GLSL 4.20 §4.4.4.6 assigns it (explicit `layout(offset)` or the
    /// binding's running offset); `None` for every other variable.
    pub atomic_offset: Option<u32>,
    /// For a member variable of an interface block: the block type.
    pub interface_block: Option<Handle<crate::types::StructType>>,
    /// Packing of the uniform block this variable belongs to / declares.
    pub block_packing: BlockPacking,
    /// Memory qualifiers of a buffer variable (the block's and, for an
    /// unnamed block's member, the member's).
    pub memory: MemoryQualifiers,
    /// Matrix layout (row/column major) of a block variable.
    pub matrix_layout: MatrixLayout,
    /// The format layout qualifier of an image variable (GLSL 4.20 §4.4.6.2).
    pub image_format: Option<image::ImageFormat>,
    /// Value of a `const` variable or a uniform's initializer.
    pub constant_value: Option<Constant>,
    /// The constant initializer as written (uniform initializers).
    pub constant_initializer: Option<Constant>,
    /// A built-in variable (`gl_*`).
    pub is_builtin: bool,
    /// Highest constant index used on an implicitly sized array (-1 = none).
    pub max_array_access: i32,
    /// The variable was read somewhere.
    pub used: bool,
    /// The variable was written somewhere.
    pub assigned: bool,
}

impl Variable {
    /// A plain variable with default qualifiers.
    pub fn new(name: impl Into<String>, ty: Type, mode: VarMode) -> Variable {
        Variable {
            name: name.into(),
            ty,
            mode,
            read_only: false,
            centroid: false,
            invariant: false,
            precise: false,
            subroutine_storage: false,
            sample: false,
            stream: 0,
            interpolation: None,
            precision: None,
            location: None,
            index: None,
            component: None,
            binding: None,
            atomic_offset: None,
            interface_block: None,
            block_packing: BlockPacking::default(),
            memory: MemoryQualifiers::default(),
            matrix_layout: MatrixLayout::default(),
            image_format: None,
            constant_value: None,
            constant_initializer: None,
            is_builtin: false,
            max_array_access: -1,
            used: false,
            assigned: false,
        }
    }
}

/// A function name with all its overloads (Mesa's `ir_function`).
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// The name.
    pub name: String,
    /// Overloads in declaration order.
    pub signatures: Vec<Signature>,
}

/// One overload (Mesa's `ir_function_signature`).
#[derive(Clone, Debug, PartialEq)]
pub struct Signature {
    /// Return type.
    pub return_type: Type,
    /// Parameter variables (modes `in`/`out`/`inout`/`const_in`).
    pub parameters: Vec<Handle<Variable>>,
    /// Body statements; empty for prototypes and built-ins.
    pub body: Vec<Handle<Stmt>>,
    /// True once a body has been given.
    pub is_defined: bool,
    /// A built-in function: the body is supplied by `lower_builtins`.
    pub builtin: Option<crate::builtins::BuiltinId>,
}

/// A statement (Mesa's `ir_instruction` subclasses that are not rvalues).
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `(declare ...)` of a local or temporary.
    Declare(Handle<Variable>),
    /// `(assign (mask) lhs rhs)`; `write_mask` bit i = component i.
    Assign {
        /// A dereference (var/array/record ref) naming the destination.
        lhs: Handle<Expr>,
        /// Value; its component count equals the number of mask bits for vectors,
        /// and its type equals the lhs type otherwise.
        rhs: Handle<Expr>,
        /// Component mask (`xyzw` = bits 0–3) for scalar and vector
        /// destinations; 0 (printed `()`, as Mesa does) for whole-value
        /// assignments of matrices, arrays and structs.
        write_mask: u8,
    },
    /// `(call f (var_ref f_retval) (args))`
    Call {
        /// Callee function.
        function: Handle<Function>,
        /// Which signature of it.
        signature: usize,
        /// Where the return value goes (a dereference), absent for void.
        return_deref: Option<Handle<Expr>>,
        /// Actual parameters; `out`/`inout` ones are dereferences.
        args: Vec<Handle<Expr>>,
    },
    /// `(return)` / `(return value)`
    Return(Option<Handle<Expr>>),
    /// `(discard)` / `(discard cond)`
    Discard(Option<Handle<Expr>>),
    /// `(if cond (then) (else))`
    If {
        /// Boolean scalar condition.
        condition: Handle<Expr>,
        /// Then block.
        then_block: Vec<Handle<Stmt>>,
        /// Else block.
        else_block: Vec<Handle<Stmt>>,
    },
    /// `(loop (body))`: loops forever until `break`.
    Loop {
        /// Body.
        body: Vec<Handle<Stmt>>,
    },
    /// `break`
    Break,
    /// `continue`
    Continue,
    /// `(emit-vertex (constant int (0)))`
    EmitVertex,
    /// `(end-primitive (constant int (0)))`
    EndPrimitive,
}

/// An expression node with its type.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// The node.
    pub kind: ExprKind,
    /// Its type.
    pub ty: Type,
}

/// The operands of an [`ExprKind::Operation`]: Mesa's `ir_expression` has at most
/// four, so they are stored inline (no heap allocation per operation node).
pub type Operands = smallvec::SmallVec<[Handle<Expr>; 4]>;

/// Expression kinds (Mesa's `ir_rvalue` subclasses).
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A constant value.
    Constant(Constant),
    /// `(var_ref v)`
    VarRef(Handle<Variable>),
    /// `(array_ref a i)`: array element, matrix column or (until lowered) vector component.
    ArrayRef(Handle<Expr>, Handle<Expr>),
    /// `(record_ref s field)`: by field index into the struct's members.
    RecordRef(Handle<Expr>, u32),
    /// `(swiz xyzw v)`: components picked by index (0–3), 1–4 of them.
    Swizzle(Handle<Expr>, Swizzle),
    /// `(expression ty op a b c d)`
    Operation(Op, Operands),
    /// A texture lookup.
    Texture(Box<Texture>),
}

/// Up to four component indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle {
    /// Component indices; only the first `len` are meaningful.
    pub components: [u8; 4],
    /// How many components (1–4).
    pub len: u8,
}

impl Swizzle {
    /// The swizzle letters (`xyzw` spelling, as Mesa prints them).
    pub fn letters(&self) -> String {
        self.components[..self.len as usize]
            .iter()
            .map(|&c| b"xyzw"[c as usize & 3] as char)
            .collect()
    }
}

/// Texture operations (Mesa's `ir_texture_opcode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TexOp {
    /// Implicit-LOD sample.
    Tex,
    /// Sample with LOD bias.
    Txb,
    /// Sample at explicit LOD.
    Txl,
    /// Sample with explicit gradients.
    Txd,
    /// Texel fetch.
    Txf,
    /// Multisample texel fetch.
    TxfMs,
    /// Size query.
    Txs,
    /// LOD query.
    Lod,
    /// Mip level count query (`textureQueryLevels`, Mesa's `ir_query_levels`).
    QueryLevels,
    /// Gather (`textureGather*`, Mesa's `ir_tg4`): `lod` holds the constant
    /// component (Mesa's `lod_info.component`).
    Tg4,
}

impl TexOp {
    /// The word in dumps.
    pub fn name(self) -> &'static str {
        match self {
            TexOp::Tex => "tex",
            TexOp::Txb => "txb",
            TexOp::Txl => "txl",
            TexOp::Txd => "txd",
            TexOp::Txf => "txf",
            TexOp::TxfMs => "txf_ms",
            TexOp::Txs => "txs",
            TexOp::Lod => "lod",
            TexOp::QueryLevels => "query_levels",
            TexOp::Tg4 => "tg4",
        }
    }
}

/// A texture lookup (Mesa's `ir_texture`).
#[derive(Clone, Debug, PartialEq)]
pub struct Texture {
    /// Which operation.
    pub op: TexOp,
    /// Dereference of the sampler.
    pub sampler: Handle<Expr>,
    /// Coordinate (absent for `txs`).
    pub coordinate: Option<Handle<Expr>>,
    /// Constant texel offset.
    pub offset: Option<Handle<Expr>>,
    /// Projective divisor (`textureProj`).
    pub projector: Option<Handle<Expr>>,
    /// Depth reference for shadow samplers.
    pub shadow_comparator: Option<Handle<Expr>>,
    /// Bias (txb), LOD (txl, txf, txs), sample index (txf_ms) or gather
    /// component (tg4).
    pub lod: Option<Handle<Expr>>,
    /// Gradients (txd).
    pub grad: Option<(Handle<Expr>, Handle<Expr>)>,
}

/// A compile-time value.
#[derive(Clone, Debug, PartialEq)]
pub enum Constant {
    /// Scalar, vector or matrix components (column-major).
    Components(Components),
    /// Array elements or struct fields.
    Aggregate(Vec<Constant>),
}

/// The components of a [`Constant::Components`]: scalars and two-component vectors
/// (most literals) are stored inline, larger values on the heap.
pub type Components = smallvec::SmallVec<[ScalarValue; 2]>;

/// One scalar component of a constant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ScalarValue {
    /// float
    Float(f32),
    /// int
    Int(i32),
    /// uint
    Uint(u32),
    /// bool
    Bool(bool),
}
