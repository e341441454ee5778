//! The NIR data structures: shader, variables, functions, instructions and SSA defs.
//!
//! Storage follows style rule 1/2: every entity lives in an [`Arena`] and is named by a
//! typed handle; *where* instructions and control-flow nodes sit is kept apart in the
//! layout ([`layout`]), as doubly linked lists in secondary maps.
//!
//! Rewriting uses: the one mechanism is [`FunctionImpl::rewrite_uses`], which walks the
//! source slots of a use list built on demand by [`FunctionImpl::build_uses`] (or, for a
//! one-off rewrite, scans every live instruction). A pass that changed nothing hands
//! its lists to the next pass of the runner sequence ([`FunctionImpl::take_uses`],
//! [`FunctionImpl::keep_uses`]); the validator checks that kept lists are current.

pub mod layout;
pub mod names;
pub mod types;

use crate::arena::{Arena, EntityRef, SecondaryMap};
use crate::intrinsics::IntrinsicOp;
use crate::opcodes::{AluType, Opcode};
pub use layout::{CfKind, CfList, CfParent};
pub use types::{BaseType, FieldLayout, Packing, SamplerDim, StructDef, StructId, Type};

crate::entity!(
    /// An SSA value.
    Def,
    "%"
);
crate::entity!(
    /// An instruction.
    Instr,
    "instr"
);
crate::entity!(
    /// A basic block.
    Block,
    "b"
);
crate::entity!(
    /// A control-flow tree node (block, if or loop).
    CfNode,
    "cf"
);
crate::entity!(
    /// A shader variable.
    VarId,
    "var"
);
crate::entity!(
    /// A function of a shader.
    FuncId,
    "fn"
);

/// Shader stage.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Vertex shader.
    Vertex,
    /// Tessellation control shader.
    TessCtrl,
    /// Tessellation evaluation shader.
    TessEval,
    /// Geometry shader.
    Geometry,
    /// Fragment shader.
    Fragment,
    /// Compute shader.
    Compute,
}

impl Stage {
    /// All stages with their Mesa enum names.
    pub const ALL: [(Stage, &'static str); 6] = [
        (Stage::Vertex, "MESA_SHADER_VERTEX"),
        (Stage::TessCtrl, "MESA_SHADER_TESS_CTRL"),
        (Stage::TessEval, "MESA_SHADER_TESS_EVAL"),
        (Stage::Geometry, "MESA_SHADER_GEOMETRY"),
        (Stage::Fragment, "MESA_SHADER_FRAGMENT"),
        (Stage::Compute, "MESA_SHADER_COMPUTE"),
    ];
    /// Mesa enum name.
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(s, _)| *s == self)
            .map(|(_, n)| *n)
            .unwrap_or("?")
    }
}

/// Shader-level information printed in the header.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShaderInfo {
    /// `name:` line (e.g. `GLSL3`).
    pub name: Option<String>,
    /// `label:` line.
    pub label: Option<String>,
    /// `internal: true`.
    pub internal: bool,
    /// `inputs:` counter.
    pub num_inputs: u32,
    /// `outputs:` counter.
    pub num_outputs: u32,
    /// `uniforms:` counter.
    pub num_uniforms: u32,
    /// FS `uses_discard: true`.
    pub uses_discard: bool,
    /// `io_lowered: true`.
    pub io_lowered: bool,
    /// Geometry shader layout (`input_primitive:` … `invocations:` lines).
    pub gs: Option<GsInfo>,
    /// Compute workgroup size (`workgroup_size: 8, 8, 1`), `None` when it is only
    /// known at dispatch time (ARB_compute_variable_group_size; then
    /// `load_workgroup_size` reads it) or the stage has none.
    pub workgroup_size: Option<[u32; 3]>,
    /// Bytes of workgroup shared memory (`shared: N`), set by `lower_explicit_io` when
    /// it lays the `shared` variables out.
    pub shared_size: u32,
}

/// Primitive kinds of geometry shader layouts (Mesa's `MESA_PRIM_*`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Primitive {
    /// `MESA_PRIM_POINTS`.
    Points,
    /// `MESA_PRIM_LINES`.
    Lines,
    /// `MESA_PRIM_LINES_ADJACENCY`.
    LinesAdjacency,
    /// `MESA_PRIM_TRIANGLES`.
    Triangles,
    /// `MESA_PRIM_TRIANGLES_ADJACENCY`.
    TrianglesAdjacency,
    /// `MESA_PRIM_LINE_STRIP`.
    LineStrip,
    /// `MESA_PRIM_TRIANGLE_STRIP`.
    TriangleStrip,
}

impl Primitive {
    /// Every primitive with its printed name.
    pub const ALL: [(Primitive, &'static str); 7] = [
        (Primitive::Points, "MESA_PRIM_POINTS"),
        (Primitive::Lines, "MESA_PRIM_LINES"),
        (Primitive::LinesAdjacency, "MESA_PRIM_LINES_ADJACENCY"),
        (Primitive::Triangles, "MESA_PRIM_TRIANGLES"),
        (
            Primitive::TrianglesAdjacency,
            "MESA_PRIM_TRIANGLES_ADJACENCY",
        ),
        (Primitive::LineStrip, "MESA_PRIM_LINE_STRIP"),
        (Primitive::TriangleStrip, "MESA_PRIM_TRIANGLE_STRIP"),
    ];

    /// The printed name.
    pub fn name(self) -> &'static str {
        Primitive::ALL
            .iter()
            .find(|(p, _)| *p == self)
            .map_or("?", |(_, n)| n)
    }

    /// Vertices per input primitive.
    pub fn vertex_count(self) -> u32 {
        match self {
            Primitive::Points => 1,
            Primitive::Lines | Primitive::LineStrip => 2,
            Primitive::LinesAdjacency => 4,
            Primitive::Triangles | Primitive::TriangleStrip => 3,
            Primitive::TrianglesAdjacency => 6,
        }
    }
}

/// Geometry shader layout.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GsInfo {
    /// Input primitive.
    pub input_primitive: Primitive,
    /// Output primitive (points, line strip or triangle strip).
    pub output_primitive: Primitive,
    /// Vertices per input primitive.
    pub vertices_in: u32,
    /// `max_vertices`.
    pub vertices_out: u32,
    /// `invocations` (1 unless the shader asks for more).
    pub invocations: u32,
}

impl Default for GsInfo {
    fn default() -> Self {
        GsInfo {
            input_primitive: Primitive::Triangles,
            output_primitive: Primitive::TriangleStrip,
            vertices_in: 3,
            vertices_out: 0,
            invocations: 1,
        }
    }
}

/// Variable mode (storage class).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum VarMode {
    /// Stage input.
    ShaderIn,
    /// Stage output.
    ShaderOut,
    /// Default-block uniform (including samplers).
    Uniform,
    /// Uniform buffer block.
    Ubo,
    /// System value (`gl_VertexID`, `gl_FrontFacing`, ...).
    SystemValue,
    /// Function-local temporary (printed with an empty mode).
    FunctionTemp,
    /// Shader global temporary (printed with an empty mode).
    ShaderTemp,
    /// Shader storage block (`buffer`), Mesa's `nir_var_mem_ssbo`: the variable has
    /// the block's struct type (or an array of it); its `driver_location` is the
    /// block index. Offsets follow the block struct's packing (std430 or std140).
    Ssbo,
    /// Workgroup shared memory (`shared`), Mesa's `nir_var_mem_shared`; compute
    /// shaders only.
    Shared,
}

impl VarMode {
    /// The printed mode word ("" for temporaries) used in `decl_var` lines.
    pub fn decl_name(self) -> &'static str {
        match self {
            VarMode::ShaderIn => "shader_in",
            VarMode::ShaderOut => "shader_out",
            VarMode::Uniform => "uniform",
            VarMode::Ubo => "ubo",
            VarMode::SystemValue => "system",
            VarMode::Ssbo => "ssbo",
            VarMode::Shared => "shared",
            VarMode::FunctionTemp | VarMode::ShaderTemp => "",
        }
    }
    /// The name used inside deref annotations (`(function_temp vec4)`).
    pub fn deref_name(self) -> &'static str {
        match self {
            VarMode::ShaderIn => "shader_in",
            VarMode::ShaderOut => "shader_out",
            VarMode::Uniform => "uniform",
            VarMode::Ubo => "ubo",
            VarMode::SystemValue => "system_value",
            VarMode::FunctionTemp => "function_temp",
            VarMode::ShaderTemp => "shader_temp",
            VarMode::Ssbo => "ssbo",
            VarMode::Shared => "shared",
        }
    }
    /// Every mode, in the order of their [`VarMode::bit`]s.
    pub const ALL: [VarMode; 9] = [
        VarMode::ShaderIn,
        VarMode::ShaderOut,
        VarMode::Uniform,
        VarMode::Ubo,
        VarMode::SystemValue,
        VarMode::FunctionTemp,
        VarMode::ShaderTemp,
        VarMode::Ssbo,
        VarMode::Shared,
    ];
    /// Parses a deref annotation mode name.
    pub fn from_deref_name(s: &str) -> Option<VarMode> {
        VarMode::ALL.into_iter().find(|m| m.deref_name() == s)
    }
    /// The mode's bit in a mode set (the `memory_modes` index of a barrier, printed
    /// `ssbo|shared`, like Mesa's `nir_variable_mode` bit set; rgl's own bit order).
    pub fn bit(self) -> u32 {
        let i = VarMode::ALL.iter().position(|m| *m == self).unwrap_or(0);
        1 << i
    }
    /// Prints a mode set (`0` when empty, else `ssbo|shared`).
    pub fn set_name(bits: u32) -> String {
        let mut parts: Vec<String> = VarMode::ALL
            .iter()
            .filter(|m| bits & m.bit() != 0)
            .map(|m| m.deref_name().to_string())
            .collect();
        let known: u32 = VarMode::ALL.iter().map(|m| m.bit()).sum();
        if bits & !known != 0 {
            parts.push(format!("0x{:x}", bits & !known));
        }
        if parts.is_empty() {
            "0".to_string()
        } else {
            parts.join("|")
        }
    }
    /// Parses a mode set printed by [`VarMode::set_name`].
    pub fn parse_set(text: &str) -> Option<u32> {
        if text == "0" {
            return Some(0);
        }
        let mut bits = 0;
        for part in text.split('|') {
            bits |= match part.strip_prefix("0x") {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => VarMode::from_deref_name(part)?.bit(),
            };
        }
        Some(bits)
    }
}

/// Interpolation qualifier.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Interp {
    /// `INTERP_MODE_NONE`.
    None,
    /// `INTERP_MODE_SMOOTH`.
    Smooth,
    /// `INTERP_MODE_FLAT`.
    Flat,
    /// `INTERP_MODE_NOPERSPECTIVE`.
    NoPerspective,
}

impl Interp {
    /// All modes with their printed names.
    pub const ALL: [(Interp, &'static str); 4] = [
        (Interp::None, "INTERP_MODE_NONE"),
        (Interp::Smooth, "INTERP_MODE_SMOOTH"),
        (Interp::Flat, "INTERP_MODE_FLAT"),
        (Interp::NoPerspective, "INTERP_MODE_NOPERSPECTIVE"),
    ];
}

/// A variable, like Mesa's `nir_variable`.
#[derive(Clone, Debug, PartialEq)]
pub struct Variable {
    /// Name (may be empty).
    pub name: String,
    /// Storage mode.
    pub mode: VarMode,
    /// Type.
    pub ty: Type,
    /// Location (`VARYING_SLOT_*`, `VERT_ATTRIB_*`, `FRAG_RESULT_*`, uniform slot,
    /// `SYSTEM_VALUE_*`), -1 when unassigned (`~0`).
    pub location: i32,
    /// First component inside the location (`location_frac`).
    pub location_frac: u8,
    /// Driver location (`driver_location`).
    pub driver_location: u32,
    /// Binding point.
    pub binding: u32,
    /// Interpolation qualifier.
    pub interp: Interp,
    /// `centroid` qualifier.
    pub centroid: bool,
    /// `sample` qualifier.
    pub sample: bool,
    /// `invariant` qualifier.
    pub invariant: bool,
    /// Constant initializer: raw 32-bit words of the flattened value.
    pub init: Option<Vec<u64>>,
    /// Memory access qualifiers of a storage block or shared variable (the
    /// [`crate::ir::names::ACCESS_FLAGS`] bits: `coherent`, `volatile`, `restrict`,
    /// `readonly`, `writeonly`), printed after the interpolation like Mesa's
    /// `decl_var` (`none` when empty).
    pub access: u32,
    /// Layout of a storage block variable's type (`std430` is printed among the
    /// flags; std140 is the default). Uniform blocks are always std140.
    pub packing: Packing,
}

impl Variable {
    /// A variable with default data.
    pub fn new(name: &str, mode: VarMode, ty: Type) -> Variable {
        Variable {
            name: name.to_string(),
            mode,
            ty,
            location: -1,
            location_frac: 0,
            driver_location: 0,
            binding: 0,
            interp: Interp::None,
            centroid: false,
            sample: false,
            invariant: false,
            init: None,
            access: 0,
            packing: Packing::Std140,
        }
    }
}

/// A function declaration with an optional body.
///
/// Calling convention (what `glsl_to_nir` emits and `inline_functions` undoes, as in
/// Mesa): every parameter is a 32-bit, 1-component deref. A non-void function's
/// parameter 0 is a deref of the caller's return-value temporary; the GLSL parameters
/// follow, each a deref of a caller-owned `function_temp` variable that the caller
/// fills before the call (`in`/`inout`) and reads back after it (`out`/`inout`).
/// Inside the callee, `@load_param (param_idx=i)` yields parameter `i`, used through a
/// `deref_cast` of the parameter's type.
#[derive(Clone, Debug)]
pub struct Function {
    /// Name.
    pub name: String,
    /// Parameters: (name, components, bit size).
    pub params: Vec<(String, u8, u8)>,
    /// The entry point of the shader.
    pub is_entrypoint: bool,
    /// Body, when defined.
    pub body: Option<FunctionImpl>,
}

/// A shader: stage, info, variables, struct types and functions.
#[derive(Clone, Debug)]
pub struct Shader {
    /// Stage.
    pub stage: Stage,
    /// Header information.
    pub info: ShaderInfo,
    /// Struct declarations referenced by [`Type::Struct`].
    pub structs: Vec<StructDef>,
    /// All variables (globals and locals; locals are listed by their impl).
    pub variables: Arena<VarId, Variable>,
    /// Global variables in declaration order.
    pub globals: Vec<VarId>,
    /// Functions in declaration order.
    pub functions: Arena<FuncId, Function>,
}

impl Shader {
    /// An empty shader of `stage`.
    pub fn new(stage: Stage) -> Shader {
        Shader {
            stage,
            info: ShaderInfo::default(),
            structs: Vec::new(),
            variables: Arena::new(),
            globals: Vec::new(),
            functions: Arena::new(),
        }
    }
    /// Adds a global variable.
    pub fn add_global(&mut self, var: Variable) -> VarId {
        let id = self.variables.push(var);
        self.globals.push(id);
        id
    }
    /// Adds a function-temp variable owned by `func`'s impl.
    pub fn add_local(&mut self, func: FuncId, var: Variable) -> VarId {
        let id = self.variables.push(var);
        if let Some(body) = self.functions.get_mut(func).and_then(|f| f.body.as_mut()) {
            body.locals.push(id);
        }
        id
    }
    /// Adds a function (with an empty body when `with_body`).
    pub fn add_function(&mut self, name: &str, with_body: bool) -> FuncId {
        self.functions.push(Function {
            name: name.to_string(),
            params: Vec::new(),
            is_entrypoint: false,
            body: with_body.then(FunctionImpl::new),
        })
    }
}

/// SSA def data.
#[derive(Clone, Debug, PartialEq)]
pub struct DefData {
    /// Defining instruction.
    pub instr: Instr,
    /// Component count (1..=16).
    pub num_components: u8,
    /// Bit size (1, 8, 16, 32, 64).
    pub bit_size: u8,
}

/// An ALU source: a def and the components read (`swizzle[i]` feeds component `i`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct AluSrc {
    /// The value read.
    pub def: Def,
    /// Component selection.
    pub swizzle: [u8; 16],
}

impl AluSrc {
    /// Identity swizzle of `def`.
    pub fn new(def: Def) -> AluSrc {
        AluSrc {
            def,
            swizzle: IDENTITY,
        }
    }
}

/// The identity swizzle.
pub const IDENTITY: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

/// Sources an ALU instruction keeps without a heap allocation: every opcode but the
/// wide `vecN` constructors (Mesa's `nir_alu_instr` likewise stores its sources in
/// the instruction).
pub const ALU_INLINE_SRCS: usize = 3;

/// The sources of an ALU instruction.
pub type AluSrcs = smallvec::SmallVec<[AluSrc; ALU_INLINE_SRCS]>;

/// An ALU instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct Alu {
    /// Opcode.
    pub op: Opcode,
    /// Sources (count from the opcode table), inline up to [`ALU_INLINE_SRCS`].
    pub srcs: AluSrcs,
    /// Must be evaluated exactly (invariant/precise): no reassociation.
    pub exact: bool,
}

/// Deref chain link.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DerefKind {
    /// `&var`.
    Var(VarId),
    /// `&(*parent)[index]`.
    Array {
        /// Parent deref.
        parent: Def,
        /// Index value.
        index: Def,
    },
    /// `&(*parent)[*]`.
    ArrayWildcard {
        /// Parent deref.
        parent: Def,
    },
    /// `&parent->field`.
    Struct {
        /// Parent deref.
        parent: Def,
        /// Field index.
        field: u32,
    },
    /// `(T *)parent`.
    Cast {
        /// Parent deref.
        parent: Def,
        /// Pointer stride.
        ptr_stride: u32,
    },
}

/// A deref instruction: a pointer-sized value naming (part of) a variable.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Deref {
    /// Link kind.
    pub kind: DerefKind,
    /// Mode of the variable addressed.
    pub mode: VarMode,
    /// Type of the addressed value.
    pub ty: Type,
}

/// An intrinsic call.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Intrinsic {
    /// Intrinsic.
    pub op: IntrinsicOp,
    /// Sources (count from the table).
    pub srcs: Vec<Def>,
    /// Component count for variable-sized sources/destination.
    pub num_components: u8,
    /// Constant indices, in the table's index order.
    pub indices: Vec<u32>,
}

/// Texture operation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
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
    /// Gather.
    Tg4,
    /// Mip level count.
    QueryLevels,
    /// Sample count.
    TextureSamples,
}

impl TexOp {
    /// Ops with their printed names.
    pub const ALL: [(TexOp, &'static str); 11] = [
        (TexOp::Tex, "tex"),
        (TexOp::Txb, "txb"),
        (TexOp::Txl, "txl"),
        (TexOp::Txd, "txd"),
        (TexOp::Txf, "txf"),
        (TexOp::TxfMs, "txf_ms"),
        (TexOp::Txs, "txs"),
        (TexOp::Lod, "lod"),
        (TexOp::Tg4, "tg4"),
        (TexOp::QueryLevels, "query_levels"),
        (TexOp::TextureSamples, "texture_samples"),
    ];
}

/// Texture source kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TexSrcKind {
    /// Coordinate.
    Coord,
    /// Projector.
    Projector,
    /// Shadow comparator.
    Comparator,
    /// Texel offset.
    Offset,
    /// LOD bias.
    Bias,
    /// Explicit LOD.
    Lod,
    /// Minimum LOD clamp.
    MinLod,
    /// Sample index.
    MsIndex,
    /// X gradient.
    Ddx,
    /// Y gradient.
    Ddy,
    /// Texture deref.
    TextureDeref,
    /// Sampler deref.
    SamplerDeref,
    /// Dynamic texture offset.
    TextureOffset,
    /// Dynamic sampler offset.
    SamplerOffset,
}

impl TexSrcKind {
    /// Kinds with their printed names.
    pub const ALL: [(TexSrcKind, &'static str); 14] = [
        (TexSrcKind::Coord, "coord"),
        (TexSrcKind::Projector, "projector"),
        (TexSrcKind::Comparator, "comparator"),
        (TexSrcKind::Offset, "offset"),
        (TexSrcKind::Bias, "bias"),
        (TexSrcKind::Lod, "lod"),
        (TexSrcKind::MinLod, "min_lod"),
        (TexSrcKind::MsIndex, "ms_index"),
        (TexSrcKind::Ddx, "ddx"),
        (TexSrcKind::Ddy, "ddy"),
        (TexSrcKind::TextureDeref, "texture_deref"),
        (TexSrcKind::SamplerDeref, "sampler_deref"),
        (TexSrcKind::TextureOffset, "texture_offset"),
        (TexSrcKind::SamplerOffset, "sampler_offset"),
    ];
    /// Printed name.
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(k, _)| *k == self)
            .map(|(_, n)| *n)
            .unwrap_or("?")
    }
}

/// A texture instruction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tex {
    /// Operation.
    pub op: TexOp,
    /// Result type (`float32`, `int32`, `uint32`).
    pub dest_type: AluType,
    /// Dimensionality.
    pub dim: SamplerDim,
    /// Array texture.
    pub is_array: bool,
    /// Shadow comparison.
    pub is_shadow: bool,
    /// Texture unit when not addressed by a deref.
    pub texture_index: u32,
    /// Sampler unit when not addressed by a deref.
    pub sampler_index: u32,
    /// Gather component (tg4).
    pub component: u8,
    /// Sources with their kinds.
    pub srcs: Vec<(TexSrcKind, Def)>,
}

/// Jump kinds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum JumpKind {
    /// Leave the innermost loop.
    Break,
    /// Go to the start of the innermost loop.
    Continue,
    /// Return from the function.
    Return,
    /// Stop the shader invocation.
    Halt,
}

impl JumpKind {
    /// Printed name.
    pub fn name(self) -> &'static str {
        match self {
            JumpKind::Break => "break",
            JumpKind::Continue => "continue",
            JumpKind::Return => "return",
            JumpKind::Halt => "halt",
        }
    }
}

/// What an instruction is (independent of where it sits).
#[derive(Clone, Debug, PartialEq)]
pub enum InstrKind {
    /// ALU operation; defines one value.
    Alu(Alu),
    /// Deref; defines a 32-bit pointer value.
    Deref(Deref),
    /// Intrinsic; defines a value when the table says so.
    Intrinsic(Intrinsic),
    /// Texture op; defines one value.
    Tex(Tex),
    /// Constant: raw bits per component (masked to the bit size).
    LoadConst(Vec<u64>),
    /// Undefined value.
    Undef,
    /// Phi: one source per predecessor block.
    Phi(Vec<(Block, Def)>),
    /// Jump; must be the last instruction of its block.
    Jump(JumpKind),
    /// Call with SSA arguments.
    Call {
        /// Callee.
        callee: FuncId,
        /// Arguments.
        args: Vec<Def>,
    },
    /// Parallel copy: every destination def (defined by this instruction) receives its
    /// source simultaneously.
    ParallelCopy(Vec<(Def, Def)>),
}

/// An instruction and the def it defines (if any).
#[derive(Clone, Debug, PartialEq)]
pub struct InstrData {
    /// Kind and operands.
    pub kind: InstrKind,
    /// The value defined (parallel copies list their defs in the kind instead).
    pub def: Option<Def>,
}

/// Generates `InstrData::visit_srcs` and `InstrData::visit_srcs_mut` from one body, so
/// both walk exactly the same source slots. Every instruction type is destructured in
/// full (no `..`): a new field that could hold a def fails to compile here until it is
/// either visited or listed as not a source.
macro_rules! src_visitor {
    ($(#[$doc:meta])* $name:ident, $($mutability:ident)?) => {
        $(#[$doc])*
        fn $name(&$($mutability)? self, mut f: impl FnMut(&$($mutability)? Def)) {
            match &$($mutability)? self.kind {
                InstrKind::Alu(Alu { op: _, srcs, exact: _ }) => {
                    for src in srcs {
                        let AluSrc { def, swizzle: _ } = src;
                        f(def);
                    }
                }
                InstrKind::Deref(Deref { kind, mode: _, ty: _ }) => match kind {
                    DerefKind::Var(_) => {}
                    DerefKind::Array { parent, index } => {
                        f(parent);
                        f(index);
                    }
                    DerefKind::ArrayWildcard { parent }
                    | DerefKind::Struct { parent, field: _ }
                    | DerefKind::Cast { parent, ptr_stride: _ } => f(parent),
                },
                InstrKind::Intrinsic(Intrinsic {
                    op: _,
                    srcs,
                    num_components: _,
                    indices: _,
                }) => {
                    for def in srcs {
                        f(def);
                    }
                }
                InstrKind::Tex(Tex {
                    op: _,
                    dest_type: _,
                    dim: _,
                    is_array: _,
                    is_shadow: _,
                    texture_index: _,
                    sampler_index: _,
                    component: _,
                    srcs,
                }) => {
                    for (_, def) in srcs {
                        f(def);
                    }
                }
                InstrKind::LoadConst(_) | InstrKind::Undef | InstrKind::Jump(_) => {}
                InstrKind::Phi(srcs) => {
                    for (_, def) in srcs {
                        f(def);
                    }
                }
                InstrKind::Call { callee: _, args } => {
                    for def in args {
                        f(def);
                    }
                }
                InstrKind::ParallelCopy(entries) => {
                    for (_, src) in entries {
                        f(src);
                    }
                }
            }
        }
    };
}

impl InstrData {
    src_visitor!(
        /// Calls `f` on every source slot (the one definition of what a source is).
        visit_srcs,
    );
    src_visitor!(
        /// Calls `f` on every source slot, mutably.
        visit_srcs_mut,
        mut
    );
    /// Calls `f` on every def read by this instruction (ALU/phi/... sources).
    pub fn for_each_src(&self, mut f: impl FnMut(Def)) {
        self.visit_srcs(|d| f(*d));
    }
    /// Calls `f` on every source slot, mutably.
    pub fn for_each_src_mut(&mut self, f: impl FnMut(&mut Def)) {
        self.visit_srcs_mut(f);
    }
    /// Every def this instruction defines.
    pub fn defs(&self) -> Vec<Def> {
        match &self.kind {
            InstrKind::ParallelCopy(entries) => entries.iter().map(|(d, _)| *d).collect(),
            _ => self.def.into_iter().collect(),
        }
    }
}

/// Basic block data (the layout owns its instruction list and CFG edges).
#[derive(Clone, Debug, Default)]
pub struct BlockData {
    /// The cf node wrapping this block (`None` for the end block).
    pub cf: Option<CfNode>,
    /// First instruction.
    pub first: Option<Instr>,
    /// Last instruction.
    pub last: Option<Instr>,
    /// Predecessors (recomputed by [`FunctionImpl::recompute_cfg`]).
    pub preds: Vec<Block>,
    /// Successors (0–2).
    pub succs: Vec<Block>,
}

/// A function body: arenas for defs, instructions, blocks and cf nodes, plus the layout.
#[derive(Clone, Debug)]
pub struct FunctionImpl {
    /// SSA defs.
    pub defs: Arena<Def, DefData>,
    /// Instructions (removed ones stay in the arena, detached from the layout).
    pub instrs: Arena<Instr, InstrData>,
    /// Blocks (removed ones stay, detached).
    pub blocks: Arena<Block, BlockData>,
    /// Control-flow nodes.
    pub cf: Arena<CfNode, layout::CfData>,
    /// Top-level cf list.
    pub body: CfList,
    /// The end block (target of returns; not part of the tree).
    pub end_block: Block,
    /// Function-temp variables.
    pub locals: Vec<VarId>,
    pub(crate) cf_prev: SecondaryMap<CfNode, Option<CfNode>>,
    pub(crate) cf_next: SecondaryMap<CfNode, Option<CfNode>>,
    pub(crate) instr_prev: SecondaryMap<Instr, Option<Instr>>,
    pub(crate) instr_next: SecondaryMap<Instr, Option<Instr>>,
    pub(crate) instr_block: SecondaryMap<Instr, Option<Block>>,
    /// On-demand metadata (block indices, dominance); see [`layout::Metadata`].
    pub metadata: layout::Metadata,
}

/// One use of a def: a source of an instruction, or the condition of an `if` (Mesa's
/// `nir_src`, whose parent is an instruction or an if).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Use {
    /// A source slot of this instruction.
    Instr(Instr),
    /// The condition of this `if` node.
    If(CfNode),
}

impl Use {
    /// The using instruction, when the use is not an if condition.
    pub fn instr(self) -> Option<Instr> {
        match self {
            Use::Instr(i) => Some(i),
            Use::If(_) => None,
        }
    }
}

/// The uses of one def. Most defs have one or two uses, kept inline (the list is
/// then as small as a `Vec` and allocates nothing).
pub type UseList = smallvec::SmallVec<[Use; 2]>;

/// Use list: for every def, its uses (with multiplicity): first the instructions
/// reading it in program order, then the `if`s branching on it in program order.
pub type Uses = SecondaryMap<Def, UseList>;

impl FunctionImpl {
    /// The use list of every def: instruction sources and `if` conditions.
    pub fn build_uses(&self) -> Uses {
        let mut uses = Uses::new();
        if let Some(last) = self.defs.len().checked_sub(1) {
            // One allocation for the whole table.
            let _ = &mut uses[Def::new(last)];
        }
        self.for_each_use(|d, u| uses[d].push(u));
        uses
    }

    /// The use lists for a pass that needs them: the ones an earlier pass of the same
    /// runner sequence kept (still current: every pass that changed the shader since
    /// dropped them, see [`crate::passes::Runner::after`]), else built now. A pass that
    /// ends without changing this function hands them back with [`Self::keep_uses`],
    /// as a Mesa pass that made no progress preserves all `nir_metadata`.
    pub fn take_uses(&mut self) -> Uses {
        match self.metadata.uses.take() {
            Some(uses) => uses,
            None => self.build_uses(),
        }
    }

    /// Keeps `uses` for the next pass of the sequence; they must describe the function
    /// as it is now (`RGL_NIR_DEBUG=validate` rebuilds and compares them).
    pub fn keep_uses(&mut self, uses: Uses) {
        self.metadata.uses = Some(uses);
    }

    /// The kept use lists, taken out (for a pass that builds them only when needed:
    /// it hands them back with [`Self::keep_uses`] when it changed nothing).
    pub fn take_kept_uses(&mut self) -> Option<Uses> {
        self.metadata.uses.take()
    }

    /// The kept use lists, if a pass left some.
    pub fn kept_uses(&self) -> Option<&Uses> {
        self.metadata.uses.as_ref()
    }

    /// Drops the kept use lists (the function changed, or the sequence ended).
    pub fn invalidate_uses(&mut self) {
        self.metadata.uses = None;
    }

    /// Calls `f` on every use in the function: each source of each attached
    /// instruction (blocks in program order), then each `if` condition (cf nodes in
    /// program order). The one walk over "everything that reads a def".
    pub fn for_each_use(&self, mut f: impl FnMut(Def, Use)) {
        for block in self.blocks_in_order() {
            let mut cur = self.blocks[block].first;
            while let Some(instr) = cur {
                self.instrs[instr].for_each_src(|d| f(d, Use::Instr(instr)));
                cur = self.instr_next[instr];
            }
        }
        for node in self.cf_nodes_in_order() {
            if let Some(cond) = self.if_condition(node) {
                f(cond, Use::If(node));
            }
        }
    }

    /// Every `if` node with its condition, in program order.
    pub fn if_conditions(&self) -> Vec<(CfNode, Def)> {
        self.cf_nodes_in_order()
            .into_iter()
            .filter_map(|node| Some((node, self.if_condition(node)?)))
            .collect()
    }

    /// Calls `f` on every use slot, mutably, in the order of [`Self::for_each_use`].
    pub fn for_each_use_mut(&mut self, mut f: impl FnMut(&mut Def, Use)) {
        for block in self.blocks_in_order() {
            let mut cur = self.blocks[block].first;
            while let Some(instr) = cur {
                self.instrs[instr].for_each_src_mut(|d| f(d, Use::Instr(instr)));
                cur = self.instr_next[instr];
            }
        }
        for node in self.cf_nodes_in_order() {
            if let CfKind::If {
                cond,
                then_list: _,
                else_list: _,
            } = &mut self.cf[node].kind
            {
                f(cond, Use::If(node));
            }
        }
    }

    /// The condition of `node` when it is an `if`.
    pub fn if_condition(&self, node: CfNode) -> Option<Def> {
        match &self.cf[node].kind {
            CfKind::If {
                cond,
                then_list: _,
                else_list: _,
            } => Some(*cond),
            CfKind::Block(_) | CfKind::Loop { body: _ } => None,
        }
    }

    /// Calls `f` on the def slots of one use (every slot of the instruction, or the if
    /// condition).
    pub fn visit_use_mut(&mut self, user: Use, mut f: impl FnMut(&mut Def)) {
        match user {
            Use::Instr(instr) => self.instrs[instr].for_each_src_mut(f),
            Use::If(node) => {
                if let CfKind::If {
                    cond,
                    then_list: _,
                    else_list: _,
                } = &mut self.cf[node].kind
                {
                    f(cond);
                }
            }
        }
    }

    /// Rewrites every use of `old` to read `new` (instruction sources and if
    /// conditions). With `uses` (from [`Self::build_uses`]) only the recorded users
    /// are visited and the list is updated; without it, every use is scanned.
    pub fn rewrite_uses(&mut self, uses: Option<&mut Uses>, old: Def, new: Def) {
        if old == new {
            return;
        }
        let replace = |d: &mut Def| {
            if *d == old {
                *d = new
            }
        };
        match uses {
            Some(u) => {
                // A user listed twice (two slots reading `old`) is visited twice; the
                // second visit finds no slot left to rewrite.
                for &user in &u[old] {
                    self.visit_use_mut(user, replace);
                }
                let moved = std::mem::take(&mut u[old]);
                u[new].extend(moved);
            }
            None => self.for_each_use_mut(|d, _| replace(d)),
        }
    }

    /// The def of `instr`, if any.
    pub fn def_of(&self, instr: Instr) -> Option<Def> {
        self.instrs[instr].def
    }

    /// Constant value of `def` when it comes from a `load_const`.
    pub fn const_value(&self, def: Def) -> Option<&[u64]> {
        let instr = self.defs.get(def)?.instr;
        match &self.instrs.get(instr)?.kind {
            InstrKind::LoadConst(v) => Some(v),
            _ => None,
        }
    }

    /// Creates a def for `instr` (not yet attached to the instruction).
    pub fn new_def(&mut self, instr: Instr, num_components: u8, bit_size: u8) -> Def {
        self.defs.push(DefData {
            instr,
            num_components,
            bit_size,
        })
    }

    /// Creates a detached instruction with an optional def `(components, bit size)`.
    pub fn create_instr(&mut self, kind: InstrKind, def: Option<(u8, u8)>) -> Instr {
        let instr = self.instrs.push(InstrData { kind, def: None });
        if let Some((c, b)) = def {
            let d = self.new_def(instr, c, b);
            self.instrs[instr].def = Some(d);
        }
        instr
    }

    /// Index of an entity for error messages.
    pub fn entity_index<K: EntityRef>(k: K) -> usize {
        k.index()
    }
}
