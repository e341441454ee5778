//! `glsl_to_nir`: converts one linked stage's GLSL IR (LIR) into NIR in deref form
//! (Mesa's `glsl_to_nir.cpp`).
//!
//! The converter owns this module tree:
//! * [`types`]: GLSL types → NIR types (structs into `Shader::structs`), constants.
//! * [`vars`]: variables with modes, locations and driver locations, deref chains,
//!   loads, stores and copies.
//! * [`expr`]: expressions → ALU instructions (Mesa's operator mapping).
//! * [`builtins`]: the few operators that expand into several ALU instructions
//!   (`atan`, `atan2`, dynamic vector indexing).
//! * [`texture`]: texture lookups → `tex` instructions (`nir_tex_instr`).
//! * [`stmt`]: statements, control flow, functions and calls.
//! * [`memory`]: the memory and compute built-ins: `atomic*()` on buffer and shared
//!   variables, the atomic counter functions, `barrier()`, `memoryBarrier*()`,
//!   `groupMemoryBarrier()`.
//!
//! Conventions of the output (what later passes may rely on):
//! * Every user function defined in the stage becomes a NIR function following the
//!   calling convention documented on [`rgl_nir::ir::Function`]; `main` is the entry
//!   point. Parameters whose type contains a sampler are passed by reference (the
//!   caller's deref of the uniform itself), read in the callee through a
//!   `uniform`-mode `deref_cast`; every other parameter goes through a caller-owned
//!   `function_temp` temporary (copy-in for `in`/`inout`, copy-out for
//!   `out`/`inout`), as does the return value.
//! * Booleans are 1-bit SSA values, and `load_deref` of a boolean yields 1 bit in every
//!   mode (as in Mesa's deref form); the 32-bit storage of uniform/UBO booleans is
//!   `lower_io`'s business (32-bit load + `b2b1`).
//! * A uniform block is one `ubo` variable whose type is the block's struct (an array
//!   of it for block arrays); its `driver_location` is the block index. Members of
//!   blocks without an instance name are reached with a `deref_struct` on it. Struct
//!   fields carry their `row_major`/`column_major` qualifier as a NIR
//!   [`rgl_nir::ir::FieldLayout`]; the block's default layout (the block's or a
//!   default `layout(row_major) uniform;`) is folded into the block struct's fields
//!   that have none, so `lower_io` and `nir::eval` see the layout of every member.
//! * A shader storage block is one `ssbo` variable built like a uniform block; its
//!   `driver_location` is the block's GL binding point (the `binding` layout, 0
//!   without one), the block source of the `*_ssbo` intrinsics after
//!   `lower_explicit_io` (see [`rgl_nir::options::storage_bindings`]; an array of
//!   blocks takes consecutive bindings). The variable carries the block's packing
//!   (`std430`, else std140) and its memory qualifiers as access flags. `shared`
//!   variables keep mode `shared`; `lower_explicit_io` lays them out.
//! * Atomic counters are no NIR variables: each counter function becomes a
//!   `load_ssbo` / `ssbo_atomic` / `ssbo_atomic_swap` on block
//!   `ATOMIC_COUNTER_BLOCK_BASE + binding` at the counter's byte offset (Mesa's
//!   `nir_lower_atomics_to_ssbo`); an `atomic_uint` parameter is a
//!   `uvec2(block, offset)` in its temporary.
//! * A compute shader's `gl_WorkGroupSize` is the constant the front end folds;
//!   the other workgroup built-ins are system values (`SYSTEM_VALUE_WORKGROUP_ID`,
//!   ...) and the local size is `info.workgroup_size`.
//! * Named input/output blocks are split into one variable per member, named
//!   `Block.member` (per-vertex arrays stay arrays); the members of `gl_in[]` keep
//!   their built-in slots (`VARYING_SLOT_POS`, ...).
//! * Variable initializers (`init`) hold one 32-bit word per scalar, flattened in
//!   declaration order (array elements, struct fields, matrix columns); booleans are
//!   0 / 1. Aggregate constants become read-only `const_temp` locals with an `init`.
//! * `discard` becomes `terminate` / `terminate_if`; `EmitVertex` / `EndPrimitive`
//!   become `emit_vertex` / `end_primitive` on stream 0.

mod builtins;
mod expr;
mod image;
mod memory;
mod stmt;
mod texture;
mod types;
mod vars;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use rgl_glsl::arena::Handle;
use rgl_glsl::hir;
use rgl_nir::builder::{Builder, Cursor};
use rgl_nir::ir::{
    AluSrc, Block, CfParent, Def, FuncId, FunctionImpl, Shader, Stage, StructId, VarId, VarMode,
};
use rgl_nir::opcodes::Opcode;

use crate::program::{LinkedProgram, LinkedStage};

/// Why a stage could not be converted.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ToNirError {
    /// A construct the converter does not handle, named.
    #[error("glsl_to_nir: unsupported {0}")]
    Unsupported(String),
    /// The GLSL IR is malformed (a front-end bug), or exceeds a resource limit.
    #[error("glsl_to_nir: {0}")]
    Invalid(String),
}

type Res<T> = Result<T, ToNirError>;

fn unsupported<T>(what: impl Into<String>) -> Res<T> {
    Err(ToNirError::Unsupported(what.into()))
}

fn invalid<T>(what: impl Into<String>) -> Res<T> {
    Err(ToNirError::Invalid(what.into()))
}

/// Deepest expression/statement nesting converted (recursion bound).
const MAX_DEPTH: u32 = 1000;

/// Converts `stage` of `program` to NIR: variables with modes, locations and
/// driver locations from the linker, every access a deref chain with
/// `load_deref`/`store_deref`/`copy_deref`, texture built-ins as `tex`.
pub fn glsl_to_nir(program: &LinkedProgram, stage: &LinkedStage) -> Result<Shader, ToNirError> {
    let _ = program;
    let mut conv = Conv::new(stage)?;
    conv.run()?;
    Ok(conv.shader)
}

/// A deref value: the SSA def of a deref instruction with its type and mode.
#[derive(Clone, Debug)]
pub(crate) struct D {
    pub def: Def,
    pub ty: rgl_nir::ir::Type,
    pub mode: VarMode,
}

/// How a GLSL IR global variable is represented in NIR.
#[derive(Clone, Debug)]
pub(crate) enum VarKind {
    /// One NIR variable.
    Plain(VarId),
    /// A member of a uniform block without an instance name: field of the block var.
    Member { var: VarId, field: u32 },
    /// A named in/out interface block split into one variable per member.
    Split(Vec<VarId>),
}

/// A parameter of the function being converted.
#[derive(Clone, Debug)]
pub(crate) struct Param {
    /// `load_param` index.
    pub idx: u32,
    /// NIR type of the parameter.
    pub ty: rgl_nir::ir::Type,
    /// Mode of the deref cast (function_temp, or uniform for opaque parameters).
    pub mode: VarMode,
}

/// Per-function conversion state.
pub(crate) struct Fs {
    pub imp: FunctionImpl,
    pub func: Option<FuncId>,
    /// Block receiving instructions.
    pub block: Block,
    /// List the current block sits in.
    pub parent: CfParent,
    /// The current block ended with a jump: the rest of the list is unreachable.
    pub dead: bool,
    pub locals: HashMap<Handle<hir::Variable>, VarId>,
    pub params: HashMap<Handle<hir::Variable>, Param>,
    /// Return type when the function returns a value (parameter 0 is its deref).
    pub ret: Option<rgl_nir::ir::Type>,
    /// Mark generated ALU instructions exact (invariant destination).
    pub exact: bool,
    /// Current recursion depth.
    pub depth: u32,
    /// Names of this function's locals (kept unique so the text reads back).
    pub names: HashSet<String>,
    /// For a local name taken more than once, the suffix `N` of the last `name$N`
    /// given out: the taken names only grow, so no smaller `N` is free again and
    /// the search for the next one starts there (linear, not quadratic, in the
    /// number of same-named temporaries).
    pub name_suffix: HashMap<String, u32>,
}

impl Default for Fs {
    fn default() -> Fs {
        Fs::new()
    }
}

impl Fs {
    fn new() -> Fs {
        let imp = FunctionImpl::new();
        let block = imp
            .body
            .first
            .and_then(|n| imp.cf_block(n))
            .unwrap_or(imp.end_block);
        Fs {
            imp,
            func: None,
            block,
            parent: CfParent::Root,
            dead: false,
            locals: HashMap::default(),
            params: HashMap::default(),
            ret: None,
            exact: false,
            depth: 0,
            names: HashSet::default(),
            name_suffix: HashMap::default(),
        }
    }
}

/// The converter.
pub(crate) struct Conv<'a> {
    pub stage: &'a LinkedStage,
    pub m: &'a hir::Module,
    pub shader: Shader,
    pub structs: HashMap<Handle<rgl_glsl::types::StructType>, StructId>,
    pub struct_names: HashSet<String>,
    pub globals: HashMap<Handle<hir::Variable>, VarKind>,
    pub ubo_blocks: HashMap<Handle<rgl_glsl::types::StructType>, VarId>,
    pub funcs: HashMap<(Handle<hir::Function>, usize), FuncId>,
    /// Names of the global variables (kept unique so the text reads back).
    pub global_names: HashSet<String>,
    pub f: Fs,
}

/// `base`, or `base$N` for the first N that makes it new to `taken` (`$` cannot appear
/// in GLSL names, so the result never collides with a later source name).
pub(crate) fn fresh_name(taken: &HashSet<String>, base: &str) -> String {
    if !taken.contains(base) {
        return base.to_string();
    }
    (1..)
        .map(|n| format!("{base}${n}"))
        .find(|n| !taken.contains(n))
        .unwrap_or_default()
}

/// The NIR geometry layout of a linked geometry stage.
fn gs_info(layout: &rgl_glsl::hir::ShaderLayout) -> rgl_nir::ir::GsInfo {
    use rgl_glsl::hir::GsPrimitive as G;
    use rgl_nir::ir::Primitive as P;
    let prim = |p: G| match p {
        G::Points => P::Points,
        G::Lines => P::Lines,
        G::LinesAdjacency => P::LinesAdjacency,
        G::Triangles => P::Triangles,
        G::TrianglesAdjacency => P::TrianglesAdjacency,
        G::LineStrip => P::LineStrip,
        G::TriangleStrip => P::TriangleStrip,
    };
    let input = layout.gs_input_primitive.map_or(P::Triangles, prim);
    rgl_nir::ir::GsInfo {
        input_primitive: input,
        output_primitive: layout.gs_output_primitive.map_or(P::TriangleStrip, prim),
        vertices_in: input.vertex_count(),
        vertices_out: layout.gs_max_vertices.unwrap_or(0),
        invocations: layout.gs_invocations.unwrap_or(1).max(1),
    }
}

impl<'a> Conv<'a> {
    fn new(stage: &'a LinkedStage) -> Res<Conv<'a>> {
        let nir_stage = match stage.stage {
            rgl_glsl::Stage::Vertex => Stage::Vertex,
            rgl_glsl::Stage::Geometry => Stage::Geometry,
            rgl_glsl::Stage::Fragment => Stage::Fragment,
            rgl_glsl::Stage::Compute => Stage::Compute,
        };
        let mut shader = Shader::new(nir_stage);
        match nir_stage {
            Stage::Geometry => shader.info.gs = Some(gs_info(&stage.hir.layout)),
            // GLSL 4.30 §4.4.1.1: the local size declared with `layout(local_size_*)
            // in;` (the linker refuses a compute program without one).
            Stage::Compute => shader.info.workgroup_size = stage.hir.layout.cs_local_size,
            _ => {}
        }
        Ok(Conv {
            stage,
            m: &stage.hir,
            shader,
            structs: HashMap::default(),
            struct_names: HashSet::default(),
            globals: HashMap::default(),
            ubo_blocks: HashMap::default(),
            funcs: HashMap::default(),
            global_names: HashSet::default(),
            f: Fs::new(),
        })
    }

    // ------------------------------------------------------------ builder helpers

    /// A builder appending to the current block.
    pub(crate) fn b(&mut self) -> Builder<'_> {
        let block = self.f.block;
        let exact = self.f.exact;
        let mut b = Builder::new(&mut self.f.imp, Cursor::EndOf(block));
        b.exact = exact;
        b
    }

    /// Component count of a def.
    pub(crate) fn comps(&self, d: Def) -> u8 {
        self.f
            .imp
            .defs
            .get(d)
            .map(|d| d.num_components)
            .unwrap_or(1)
    }

    /// Bit size of a def.
    pub(crate) fn bits(&self, d: Def) -> u8 {
        self.f.imp.defs.get(d).map(|d| d.bit_size).unwrap_or(32)
    }

    /// An ALU instruction with explicit sources, marked exact when required.
    pub(crate) fn alu_srcs(
        &mut self,
        op: Opcode,
        srcs: impl IntoIterator<Item = AluSrc>,
        n: u8,
    ) -> Def {
        self.b().alu(op, srcs, n)
    }

    /// An ALU instruction producing `n` components (for per-component ops) from whole
    /// defs; scalar sources of per-component inputs are replicated.
    pub(crate) fn alu(&mut self, op: Opcode, srcs: &[Def], n: u8) -> Def {
        let info = op.info();
        let mut v = rgl_nir::ir::AluSrcs::with_capacity(srcs.len());
        for (i, &s) in srcs.iter().enumerate() {
            let mut src = AluSrc::new(s);
            let per_comp = info.input_sizes.get(i).copied().unwrap_or(0) == 0;
            if per_comp && self.comps(s) == 1 && n > 1 {
                src.swizzle = [0; 16];
            }
            v.push(src);
        }
        self.alu_srcs(op, v, n)
    }

    /// `mov` with a swizzle: result has `swz.len()` components.
    pub(crate) fn swizzle(&mut self, d: Def, swz: &[u8]) -> Def {
        let n = self.comps(d);
        if swz.len() == usize::from(n) && swz.iter().enumerate().all(|(i, c)| usize::from(*c) == i)
        {
            return d;
        }
        let mut src = AluSrc::new(d);
        for (i, c) in swz.iter().enumerate().take(16) {
            src.swizzle[i] = *c;
        }
        self.alu_srcs(Opcode::mov, vec![src], swz.len().clamp(1, 16) as u8)
    }

    /// Component `c` of `d`.
    pub(crate) fn channel(&mut self, d: Def, c: u8) -> Def {
        self.swizzle(d, &[c])
    }

    /// `d` replicated to `n` components (a scalar), or `d` itself.
    pub(crate) fn splat(&mut self, d: Def, n: u8) -> Def {
        if self.comps(d) == n {
            return d;
        }
        self.swizzle(d, &vec![0; usize::from(n)])
    }

    /// A float constant.
    pub(crate) fn imm_f(&mut self, v: f32) -> Def {
        self.b().imm_f32(v)
    }

    /// An int constant.
    pub(crate) fn imm_i(&mut self, v: i32) -> Def {
        self.b().imm_i32(v)
    }

    /// `vecN` from scalars (or the scalar itself).
    pub(crate) fn vec(&mut self, comps: &[Def]) -> Res<Def> {
        let op = match comps.len() {
            1 => return Ok(comps[0]),
            2 => Opcode::vec2,
            3 => Opcode::vec3,
            4 => Opcode::vec4,
            n => return invalid(format!("vector of {n} components")),
        };
        let n = comps.len() as u8;
        Ok(self.alu(op, comps, n))
    }

    /// Enters one more level of recursion.
    pub(crate) fn enter(&mut self) -> Res<()> {
        self.f.depth += 1;
        if self.f.depth > MAX_DEPTH {
            return invalid(format!(
                "expression or statement nesting deeper than {MAX_DEPTH}"
            ));
        }
        Ok(())
    }

    /// Leaves a level entered with [`Self::enter`].
    pub(crate) fn leave(&mut self) {
        self.f.depth = self.f.depth.saturating_sub(1);
    }

    // ------------------------------------------------------------ driver

    fn run(&mut self) -> Res<()> {
        self.declare_globals()?;
        self.declare_functions()?;
        self.convert_bodies()
    }
}
