//! `nir::eval`: a reference interpreter of one shader invocation.
//!
//! Straightforward and correct rather than fast: it walks the control-flow tree of the
//! entry point, evaluates every instruction on concrete values and records what the
//! invocation writes. It runs NIR in both forms the link pipeline produces:
//!
//! * **deref form**: variables of every mode, deref chains (var / array / wildcard /
//!   struct / cast), `load_deref` / `store_deref` / `copy_deref`, calls whose
//!   arguments are derefs read back through `load_param`;
//! * **lowered form**: `load_input`, `load_per_vertex_input`,
//!   `load_interpolated_input` (+ `load_barycentric_*`), `store_output`,
//!   `load_output`, `load_uniform`, `load_ubo` and the system-value intrinsics;
//! * **compute** (lowered by `lower_explicit_io`): `load_ssbo` / `store_ssbo` /
//!   `get_ssbo_size` / `ssbo_atomic(_swap)` on [`EvalInput::ssbos`], the shared-memory
//!   intrinsics, workgroup barriers and the subgroup operations; a whole workgroup
//!   runs with [`evaluate_workgroup`] (`group.rs` explains the scheduling). Storage
//!   and shared variables in deref form are not evaluated (an `Unsupported` error).
//! * **images** in both forms (`image_deref_*` and the `image_*` index form) on
//!   [`EvalInput::images`] (see `exec/image.rs`).
//!   Memory accesses are bounds-checked like every other read and write.
//!
//! Both forms address the outside world the same way, so their results compare
//! directly (conventions of `rgl_link::program`):
//! * inputs and outputs are keyed by IO location (`VERT_ATTRIB_*`, `VARYING_SLOT_*`,
//!   `FRAG_RESULT_*`) and component: a variable at `location` / `location_frac`
//!   occupies one location per vector, matrix column, array element and struct
//!   member (`gl_ClipDistance` / `gl_CullDistance` float arrays are compact: element
//!   `i` is component `i % 4` of location `CLIP_DIST0 + i / 4`); the lowered form
//!   uses the io semantics location plus the offset source and `component`;
//!   geometry-shader inputs carry a vertex index;
//! * default-block uniforms are vec4 slots: a uniform variable reads the slots from its
//!   `driver_location`, laid out like `type_size_vec4` (one slot per
//!   vector / matrix column / array element, struct members in order; samplers take
//!   none); `load_uniform` reads slot `base + offset`;
//! * uniform blocks are byte buffers laid out std140 (`load_ubo(block, byte offset)`);
//!   a `ubo` variable is the member of block `driver_location` at byte offset
//!   `location` (0 when unassigned);
//! * system values are keyed by `SYSTEM_VALUE_*` number; system-value variables and
//!   the `load_*` intrinsics read the same entries;
//! * a sampler variable's `driver_location` is its sampler index; a sampler reached
//!   through arrays / struct members adds the number of samplers before it in
//!   flattening order; `tex` without a texture deref uses `texture_index` (plus a
//!   `texture_offset` source).
//!
//! Semantics choices (the same for every form, so before/after runs agree):
//! * `undef` is all zeros, and undefinedness is tracked: each value component carries
//!   an "undefined" bit, set by `undef`, by reads of never-written temporaries or
//!   outputs and by out-of-bounds reads, and propagated through ALU operations
//!   (per component; `bcsel` only from the condition and the selected source), memory
//!   and textures; outputs holding such values are listed in
//!   [`EvalOutput::undefined`], and control flow or addressing that depends on one is
//!   counted in [`EvalOutput::undefined_control`]; derivatives (`ddx`, `ddy`, `*_fine`, `*_coarse`) are 0
//!   because a single invocation has no neighbours; barycentrics are (0, 0) and an
//!   interpolated load returns the given input value (one fragment at given inputs);
//! * `discard`, `discard_if`, `terminate(_if)` and `demote(_if)` kill the invocation:
//!   execution stops and [`EvalOutput::discarded`] is set;
//! * `emit_vertex` records a snapshot of the outputs, `end_primitive` a primitive
//!   boundary (geometry shaders);
//! * ALU instructions are evaluated by the opcode table's constant folder
//!   ([`crate::constant_fold::fold_alu`]): there is one ALU semantics in the crate;
//! * reads outside a variable or an input set give 0, writes outside are dropped,
//!   and both are counted in [`EvalOutput::out_of_bounds`] (undefined behaviour in
//!   GLSL, so callers may want to ignore such runs);
//! * an instruction budget ([`EvalInput::max_instructions`]) ends infinite loops with
//!   [`EvalErrorKind::BudgetExceeded`]; call and nesting depth are bounded too.
//!
//! Textures ([`texture`]) are small procedural images (or given texels), sampled
//! nearest on level 0.

pub mod clock;
mod exec;
mod group;
mod memory;
pub mod texture;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::ir::{BaseType, Shader, Stage, Type, VarId, VarMode};
pub use texture::Texture;

/// Key of one input component: (vertex, location, component). `vertex` is 0 except
/// for the per-vertex inputs of geometry shaders.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InputKey {
    /// Vertex index (geometry shader inputs), else 0.
    pub vertex: u32,
    /// IO location (`VERT_ATTRIB_*` / `VARYING_SLOT_*`).
    pub location: i32,
    /// Component 0..=3.
    pub component: u8,
}

/// Everything one invocation reads.
#[derive(Clone, Debug)]
pub struct EvalInput {
    /// Input components as 32-bit words; missing entries read as 0.
    pub inputs: BTreeMap<InputKey, u32>,
    /// Input components whose value is undefined (e.g. an undefined output of the
    /// previous stage); reads of them yield undefined values.
    pub undefined_inputs: BTreeSet<InputKey>,
    /// Input components missing from [`EvalInput::inputs`] read as undefined (a
    /// previous stage that did not write them) instead of as defined zeros.
    pub missing_inputs_undefined: bool,
    /// Default-block uniform storage, one vec4 of words per slot.
    pub uniforms: Vec<[u32; 4]>,
    /// Uniform block contents by block index (std140 bytes).
    pub ubos: Vec<Vec<u8>>,
    /// Storage buffer contents by block index (the bound range's bytes; its length
    /// is what `get_ssbo_size` reports). The final contents are in
    /// [`EvalOutput::ssbos`] / [`WorkgroupOutput::ssbos`].
    pub ssbos: Vec<Vec<u8>>,
    /// System values by `SYSTEM_VALUE_*` number (booleans as 0 / 1).
    pub system_values: BTreeMap<i32, [u32; 4]>,
    /// User clip planes (`load_user_clip_plane`), as float words.
    pub clip_planes: Vec<[u32; 4]>,
    /// Textures by sampler index; indices without an entry use
    /// [`Texture::default`] (procedural).
    pub textures: Vec<Texture>,
    /// Images by image index (GLSL 4.20 §8.12; see `exec/image.rs`); indices
    /// without an entry have no image. The final contents are in
    /// [`EvalOutput::images`] / [`WorkgroupOutput::images`].
    pub images: Vec<EvalImage>,
    /// Instruction budget (every executed instruction and loop iteration counts).
    pub max_instructions: u64,
}

impl Default for EvalInput {
    fn default() -> Self {
        EvalInput {
            inputs: BTreeMap::new(),
            undefined_inputs: BTreeSet::new(),
            missing_inputs_undefined: false,
            uniforms: Vec::new(),
            ubos: Vec::new(),
            ssbos: Vec::new(),
            system_values: BTreeMap::new(),
            clip_planes: Vec::new(),
            textures: Vec::new(),
            images: Vec::new(),
            max_instructions: DEFAULT_BUDGET,
        }
    }
}

/// One image bound to an image index: its size (width, height, and slices:
/// layers, cube faces × layers or 3D depth) and its texels as four raw words
/// each, `x + width * (y + height * slice)`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EvalImage {
    /// Width, height, slices.
    pub size: [u32; 3],
    /// The texels.
    pub texels: Vec<[u32; 4]>,
}

impl EvalImage {
    /// A zero-filled image of `size`.
    pub fn new(size: [u32; 3]) -> EvalImage {
        let n = size.iter().map(|s| *s as usize).product::<usize>();
        EvalImage {
            size,
            texels: vec![[0; 4]; n],
        }
    }
}

/// Default instruction budget.
pub const DEFAULT_BUDGET: u64 = 1_000_000;

/// Output map: (location, component) → 32-bit word.
pub type Outputs = BTreeMap<(i32, u8), u32>;

/// One vertex emitted by a geometry shader.
#[derive(Clone, Debug, PartialEq)]
pub struct EmittedVertex {
    /// Stream of the `emit_vertex`.
    pub stream: u32,
    /// Number of `end_primitive` executed before this vertex.
    pub primitive: u32,
    /// Snapshot of the outputs at the emit.
    pub outputs: Outputs,
    /// Output components whose value was undefined at the emit.
    pub undefined: BTreeSet<(i32, u8)>,
}

/// What one invocation produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EvalOutput {
    /// Output components written, by (location, component).
    pub outputs: Outputs,
    /// Written output components whose value is undefined (derived from `undef`, an
    /// uninitialised variable or an out-of-bounds read).
    pub undefined: BTreeSet<(i32, u8)>,
    /// Times control flow (a branch, a loop exit, a discard condition) or an address
    /// depended on an undefined value: the run's behaviour is then undefined.
    pub undefined_control: u32,
    /// The invocation was killed (`discard`, `terminate`, `demote`).
    pub discarded: bool,
    /// Vertices emitted (geometry shaders).
    pub emitted: Vec<EmittedVertex>,
    /// Number of `end_primitive` executed.
    pub primitives_ended: u32,
    /// Instructions executed.
    pub instructions: u64,
    /// Accesses outside a variable, an array or an input/uniform/UBO range (their
    /// values are 0 and undefined / the writes are dropped).
    pub out_of_bounds: u32,
    /// The writes among [`EvalOutput::out_of_bounds`] (undefined behaviour that may
    /// corrupt other storage in a real implementation).
    pub out_of_bounds_writes: u32,
    /// Storage buffer contents after the run ([`evaluate`] only; a workgroup's
    /// are in [`WorkgroupOutput::ssbos`]).
    pub ssbos: Vec<Vec<u8>>,
    /// Image contents after the run ([`evaluate`] only).
    pub images: Vec<EvalImage>,
}

/// Why an evaluation stopped without a result.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EvalErrorKind {
    /// More instructions than [`EvalInput::max_instructions`].
    BudgetExceeded,
    /// Calls or control flow nested deeper than the interpreter allows.
    TooDeep,
    /// Something the interpreter does not evaluate (named in the message).
    Unsupported,
    /// The shader is not well-formed (use before definition, missing phi source, ...).
    Malformed,
}

/// An evaluation error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalError {
    /// Kind.
    pub kind: EvalErrorKind,
    /// Description.
    pub message: String,
}

impl EvalError {
    pub(crate) fn new(kind: EvalErrorKind, message: impl Into<String>) -> EvalError {
        EvalError {
            kind,
            message: message.into(),
        }
    }
    pub(crate) fn unsupported(message: impl Into<String>) -> EvalError {
        Self::new(EvalErrorKind::Unsupported, message)
    }
    pub(crate) fn malformed(message: impl Into<String>) -> EvalError {
        Self::new(EvalErrorKind::Malformed, message)
    }
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let k = match self.kind {
            EvalErrorKind::BudgetExceeded => "instruction budget exceeded",
            EvalErrorKind::TooDeep => "nesting too deep",
            EvalErrorKind::Unsupported => "unsupported",
            EvalErrorKind::Malformed => "malformed shader",
        };
        write!(f, "{k}: {}", self.message)
    }
}

impl std::error::Error for EvalError {}

/// One scalar component of an IO variable, as the interpreter addresses it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct IoComponent {
    /// Vertex (geometry-shader per-vertex inputs), else 0.
    pub vertex: u32,
    /// IO location.
    pub location: i32,
    /// Component 0..=3.
    pub component: u8,
    /// Scalar type.
    pub base: BaseType,
}

/// Every scalar component a `shader_in` / `shader_out` variable occupies, with the
/// same location rules as the evaluation of its derefs (vec4 slots from `location`,
/// `location_frac`, compact clip/cull distances, per-vertex geometry inputs). Empty for
/// other modes and for types too large to enumerate.
pub fn io_components(shader: &Shader, var: VarId) -> Vec<IoComponent> {
    let Some(v) = shader.variables.get(var) else {
        return Vec::new();
    };
    if !matches!(v.mode, VarMode::ShaderIn | VarMode::ShaderOut) || v.location < 0 {
        return Vec::new();
    }
    let per_vertex = v.mode == VarMode::ShaderIn && shader.stage == Stage::Geometry;
    let (ty, vertices) = match (&v.ty, per_vertex) {
        (Type::Array(e, n), true) => ((**e).clone(), *n),
        _ => (v.ty.clone(), 1),
    };
    let compact = exec::is_compact(v);
    let Some(leaves) = memory::leaves(&ty, &shader.structs, compact, (false, 4)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for vertex in 0..vertices.min(64) {
        for leaf in &leaves {
            let (slot, comp) = memory::normalise(
                i64::from(v.location) + leaf.slot,
                i64::from(v.location_frac) + leaf.comp,
            );
            if let Ok(location) = i32::try_from(slot) {
                out.push(IoComponent {
                    vertex,
                    location,
                    component: comp as u8,
                    base: leaf.base,
                });
            }
        }
    }
    out
}

/// Runs the entry point of `shader` once over `input`, as a workgroup of one
/// invocation: storage buffers start from [`EvalInput::ssbos`], shared memory
/// (`info.shared_size` bytes) from zeros, barriers return at once and subgroup
/// operations see this invocation alone.
pub fn evaluate(shader: &Shader, input: &EvalInput) -> Result<EvalOutput, EvalError> {
    let memory = group::Memory {
        ssbos: input.ssbos.clone(),
        shared: vec![0; shader.info.shared_size as usize],
        images: input.images.clone(),
    };
    let group = group::Group::new(1, 1, memory);
    let mut out = exec::Interp::new(shader, input, &group, 0).run()?;
    let memory = group.memory.into_inner().unwrap_or_else(|e| e.into_inner());
    out.ssbos = memory.ssbos;
    out.images = memory.images;
    Ok(out)
}

/// Most invocations [`evaluate_workgroup`] runs (GL's minimum
/// `GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS`).
pub const MAX_WORKGROUP_INVOCATIONS: u32 = 1024;

/// Stack of each invocation's thread in [`evaluate_workgroup`].
const INVOCATION_STACK: usize = 4 << 20;

/// Which workgroup of a dispatch to evaluate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkgroupInput {
    /// `gl_WorkGroupID`.
    pub workgroup_id: [u32; 3],
    /// `gl_NumWorkGroups`.
    pub num_workgroups: [u32; 3],
    /// The workgroup size when the shader's is variable (`info.workgroup_size` is
    /// `None`); ignored otherwise.
    pub workgroup_size: [u32; 3],
    /// Invocations per subgroup (≥ 1): consecutive `gl_LocalInvocationIndex`
    /// values form a subgroup.
    pub subgroup_size: u32,
}

impl Default for WorkgroupInput {
    fn default() -> Self {
        WorkgroupInput {
            workgroup_id: [0; 3],
            num_workgroups: [1; 3],
            workgroup_size: [1; 3],
            subgroup_size: 1,
        }
    }
}

/// What one workgroup produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorkgroupOutput {
    /// Each invocation's result, by `gl_LocalInvocationIndex`.
    pub invocations: Vec<EvalOutput>,
    /// Storage buffer contents after the workgroup ran.
    pub ssbos: Vec<Vec<u8>>,
    /// Shared memory at the end.
    pub shared: Vec<u8>,
    /// Image contents after the workgroup ran.
    pub images: Vec<EvalImage>,
}

/// Runs every invocation of one workgroup of a compute shader, with storage buffers
/// starting from [`EvalInput::ssbos`] and zeroed shared memory. Each invocation gets
/// the compute system values (`gl_LocalInvocationID`, `gl_GlobalInvocationID`, ...,
/// subgroup invocation and size) added to `input.system_values`. Invocations run
/// one at a time, split at workgroup barriers and subgroup operations (see
/// `group.rs`), so results are deterministic. The first invocation error (lowest
/// index) is returned.
pub fn evaluate_workgroup(
    shader: &Shader,
    input: &EvalInput,
    wg: &WorkgroupInput,
) -> Result<WorkgroupOutput, EvalError> {
    evaluate_workgroup_owned(shader, input, wg, input.ssbos.clone())
}

/// [`evaluate_workgroup`] over storage buffers the caller hands over (and
/// gets back in [`WorkgroupOutput::ssbos`]) instead of `input.ssbos`, which
/// is ignored: a dispatch of many workgroups then copies no buffer.
pub fn evaluate_workgroup_owned(
    shader: &Shader,
    input: &EvalInput,
    wg: &WorkgroupInput,
    ssbos: Vec<Vec<u8>>,
) -> Result<WorkgroupOutput, EvalError> {
    use crate::ir::names::*;
    if shader.stage != Stage::Compute {
        return Err(EvalError::unsupported(format!(
            "a workgroup of a {} shader",
            shader.stage.name()
        )));
    }
    let size = shader.info.workgroup_size.unwrap_or(wg.workgroup_size);
    let count = size
        .iter()
        .try_fold(1u32, |acc, s| acc.checked_mul(*s))
        .filter(|n| (1..=MAX_WORKGROUP_INVOCATIONS).contains(n))
        .ok_or_else(|| {
            EvalError::unsupported(format!(
                "workgroup size {size:?} (1 to {MAX_WORKGROUP_INVOCATIONS} invocations)"
            ))
        })?;
    let subgroup = wg.subgroup_size.clamp(1, 128);
    let input_images = input.images.clone();
    // Invocations reach the buffers through the group's memory only: their
    // own inputs carry none (a copy per invocation would cost the buffers'
    // size times the workgroup size).
    let base = EvalInput {
        inputs: input.inputs.clone(),
        undefined_inputs: input.undefined_inputs.clone(),
        missing_inputs_undefined: input.missing_inputs_undefined,
        uniforms: input.uniforms.clone(),
        ubos: input.ubos.clone(),
        ssbos: Vec::new(),
        system_values: input.system_values.clone(),
        clip_planes: input.clip_planes.clone(),
        textures: input.textures.clone(),
        images: Vec::new(),
        max_instructions: input.max_instructions,
    };
    let input = &base;
    let inputs: Vec<EvalInput> = (0..count)
        .map(|index| {
            let local = [
                index % size[0],
                index / size[0] % size[1],
                index / (size[0] * size[1]),
            ];
            let global: Vec<u32> = (0..3)
                .map(|i| {
                    wg.workgroup_id[i]
                        .wrapping_mul(size[i])
                        .wrapping_add(local[i])
                })
                .collect();
            let mut inp = input.clone();
            let mut set = |loc: i32, v: [u32; 3]| {
                inp.system_values.insert(loc, [v[0], v[1], v[2], 0]);
            };
            set(SYSTEM_VALUE_LOCAL_INVOCATION_ID, local);
            set(SYSTEM_VALUE_WORKGROUP_ID, wg.workgroup_id);
            set(SYSTEM_VALUE_NUM_WORKGROUPS, wg.num_workgroups);
            set(
                SYSTEM_VALUE_GLOBAL_INVOCATION_ID,
                [global[0], global[1], global[2]],
            );
            set(SYSTEM_VALUE_LOCAL_INVOCATION_INDEX, [index, 0, 0]);
            set(SYSTEM_VALUE_WORKGROUP_SIZE, size);
            set(SYSTEM_VALUE_SUBGROUP_INVOCATION, [index % subgroup, 0, 0]);
            set(SYSTEM_VALUE_SUBGROUP_SIZE, [subgroup, 0, 0]);
            inp
        })
        .collect();
    let memory = group::Memory {
        ssbos,
        shared: vec![0; shader.info.shared_size as usize],
        images: input_images,
    };
    let group = group::Group::new(count as usize, subgroup as usize, memory);
    let results: Vec<Result<EvalOutput, EvalError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = inputs
            .iter()
            .enumerate()
            .map(|(i, inp)| {
                let group = &group;
                let spawned = std::thread::Builder::new()
                    .stack_size(INVOCATION_STACK)
                    .spawn_scoped(scope, move || {
                        group.start(i);
                        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            exec::Interp::new(shader, inp, group, i).run()
                        }));
                        group.finish(i);
                        result.unwrap_or_else(|_| {
                            Err(EvalError::malformed("the interpreter panicked"))
                        })
                    });
                if spawned.is_err() {
                    // Never leave the others waiting for this invocation's turn.
                    group.finish(i);
                }
                spawned
            })
            .collect();
        handles
            .into_iter()
            .map(|h| match h {
                Ok(h) => h
                    .join()
                    .unwrap_or_else(|_| Err(EvalError::malformed("invocation thread failed"))),
                Err(e) => Err(EvalError::unsupported(format!(
                    "cannot start an invocation thread: {e}"
                ))),
            })
            .collect()
    });
    let invocations = results.into_iter().collect::<Result<Vec<_>, _>>()?;
    let memory = group.memory.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(WorkgroupOutput {
        invocations,
        ssbos: memory.ssbos,
        shared: memory.shared,
        images: memory.images,
    })
}
