//! Compute dispatch in the software driver (GL 4.3 §19, "Compute Shaders").
//!
//! A compute shader is kept as its finalized NIR; [`dispatch`] runs every
//! workgroup of a dispatch through the reference interpreter
//! ([`rgl_nir::eval::evaluate_workgroup`]), which runs a workgroup's invocations
//! split at `barrier()` (each invocation runs to the barrier before any
//! continues), gives each workgroup zeroed shared memory, and evaluates
//! `ssbo_atomic*` / `shared_atomic*` one invocation at a time, so they are
//! atomic within the workgroup.
//!
//! Workgroups run one after another, each starting from the storage buffer
//! contents the previous one left: a serial schedule is one the GL allows
//! (GL 4.3 §7.12, workgroups run in an undefined order), and it makes every
//! atomic of the dispatch atomic across workgroups. It also means a dispatch
//! uses one workgroup's invocation threads at a time, not the rasterizer's
//! worker threads; the lane and JIT paths do not run compute shaders yet.
//!
//! Storage buffers are addressed as the compiler's binding space
//! ([`rgl_nir::options::storage_bindings`]): block `b` of `load_ssbo(b, ...)`
//! reads the range bound at [`ComputeDispatch::storage`]`[b]`. Every access is
//! bounds-checked against the bound range by the interpreter (out-of-range
//! writes are dropped, reads return 0), `get_ssbo_size` is the range's size, and
//! only the bytes a dispatch changed are written back, so bindings that alias
//! one buffer keep each other's writes.
//!
//! The instruction budget is the driver's, for the whole dispatch: a workgroup's
//! invocations share what the earlier workgroups left, so an endless loop stops
//! with [`Error::BudgetExceeded`] after at most the budget's instructions.

use rgl_nir::eval::{self, EvalErrorKind, EvalInput, WorkgroupInput};
use rgl_nir::ir::{Shader, Stage, StructDef, Type};

use crate::driver::{BufferRange, ComputeDispatch};
use crate::error::{Error, Result};
use crate::soft::Table;

/// GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS of the software driver: what the
/// interpreter runs in one workgroup.
pub const MAX_WORKGROUP_INVOCATIONS: u32 = eval::MAX_WORKGROUP_INVOCATIONS;

/// Subgroup size compute invocations see (the interpreter's: one invocation
/// per subgroup operation step, so `gl_SubGroupSizeARB` is 1).
const SUBGROUP_SIZE: u32 = 1;

/// What a compute dispatch reads besides storage buffers: the bound
/// default-block uniforms and uniform buffer ranges.
pub(crate) struct ComputeInputs<'a> {
    /// Default-block uniform slots.
    pub uniforms: &'a [[u32; 4]],
    /// Uniform block ranges by slot.
    pub ubos: &'a [Option<BufferRange>],
    /// The driver's instruction budget for the dispatch.
    pub budget: u64,
}

/// Checks that `nir` is a compute shader the interpreter can run: the compute
/// stage, a fixed workgroup size within [`MAX_WORKGROUP_INVOCATIONS`], and no
/// texture or image access (compute texturing is not implemented here).
pub(crate) fn check_shader(nir: &Shader) -> Result<()> {
    if nir.stage != Stage::Compute {
        return Err(Error::InvalidArgument(format!(
            "a {} shader is not a compute shader",
            nir.stage.name()
        )));
    }
    let Some(size) = nir.info.workgroup_size else {
        return Err(Error::Unsupported(
            "compute shaders with a variable workgroup size".into(),
        ));
    };
    // The interpreter samples procedural stand-in textures, not the bound
    // views, so a compute shader with samplers is refused rather than run
    // with wrong texels.
    if let Some((_, v)) = nir
        .variables
        .iter()
        .find(|(_, v)| has_sampler(&v.ty, &nir.structs, 0))
    {
        return Err(Error::Unsupported(format!(
            "texturing in compute shaders (sampler `{}`)",
            v.name
        )));
    }
    let n = size.iter().map(|s| u64::from(*s)).product::<u64>();
    if n == 0 || n > u64::from(MAX_WORKGROUP_INVOCATIONS) {
        return Err(Error::Unsupported(format!(
            "workgroup size {size:?} (1 to {MAX_WORKGROUP_INVOCATIONS} invocations)"
        )));
    }
    Ok(())
}

/// Whether `ty` is or contains a sampler (nesting bounded as the validator's).
fn has_sampler(ty: &Type, structs: &[StructDef], depth: u32) -> bool {
    if depth > 64 {
        return false;
    }
    match ty {
        Type::Sampler { .. } => true,
        Type::Array(e, _) => has_sampler(e, structs, depth + 1),
        Type::Struct(id) => structs
            .get(rgl_nir::arena::EntityRef::index(*id))
            .is_some_and(|d| {
                d.fields
                    .iter()
                    .any(|(_, t)| has_sampler(t, structs, depth + 1))
            }),
        _ => false,
    }
}

/// Runs `dispatch` of `shader` over the driver's `buffers`.
pub(crate) fn dispatch(
    shader: &Shader,
    dispatch: &ComputeDispatch,
    inputs: &ComputeInputs<'_>,
    buffers: &mut Table<Vec<u8>>,
) -> Result<()> {
    let [gx, gy, gz] = dispatch.groups;
    if gx == 0 || gy == 0 || gz == 0 {
        return Ok(());
    }
    let size = shader.info.workgroup_size.ok_or_else(|| {
        Error::Unsupported("compute shaders with a variable workgroup size".into())
    })?;
    let per_group = size.iter().map(|s| u64::from(*s)).product::<u64>().max(1);
    let mut input = EvalInput {
        uniforms: inputs.uniforms.to_vec(),
        ..EvalInput::default()
    };
    input.ubos = inputs
        .ubos
        .iter()
        .map(|r| range_bytes(buffers, r.as_ref()))
        .collect::<Result<_>>()?;
    input.ssbos = dispatch
        .storage
        .iter()
        .map(|r| range_bytes(buffers, r.as_ref()))
        .collect::<Result<_>>()?;
    let original = input.ssbos.clone();
    let mut remaining = inputs.budget;
    for z in 0..gz {
        for y in 0..gy {
            for x in 0..gx {
                // Each invocation may use an equal share of what is left.
                input.max_instructions = (remaining / per_group).max(1);
                let wg = WorkgroupInput {
                    workgroup_id: [x, y, z],
                    num_workgroups: dispatch.groups,
                    workgroup_size: size,
                    subgroup_size: SUBGROUP_SIZE,
                };
                let ssbos = std::mem::take(&mut input.ssbos);
                let out = eval::evaluate_workgroup_owned(shader, &input, &wg, ssbos).map_err(
                    |e| match e.kind {
                        EvalErrorKind::BudgetExceeded => Error::BudgetExceeded(inputs.budget),
                        _ => Error::Exec(format!("workgroup ({x}, {y}, {z}): {e}")),
                    },
                )?;
                let used: u64 = out.invocations.iter().map(|i| i.instructions).sum();
                remaining = remaining.saturating_sub(used);
                input.ssbos = out.ssbos;
            }
        }
    }
    write_back(buffers, dispatch, &original, &input.ssbos)
}

/// The bytes of a bound range (empty when unbound), clamped to the buffer.
fn range_bytes(buffers: &Table<Vec<u8>>, range: Option<&BufferRange>) -> Result<Vec<u8>> {
    let Some(r) = range else {
        return Ok(Vec::new());
    };
    let b = buffers.get(r.buffer.0)?;
    let start = usize::try_from(r.offset).unwrap_or(usize::MAX).min(b.len());
    let end = usize::try_from(r.offset.saturating_add(r.size))
        .unwrap_or(usize::MAX)
        .min(b.len());
    Ok(b[start..end].to_vec())
}

/// Stores the bytes each binding's range changed back into its buffer.
fn write_back(
    buffers: &mut Table<Vec<u8>>,
    dispatch: &ComputeDispatch,
    original: &[Vec<u8>],
    results: &[Vec<u8>],
) -> Result<()> {
    for ((range, before), after) in dispatch.storage.iter().zip(original).zip(results) {
        let Some(r) = range else { continue };
        let b = buffers.get_mut(r.buffer.0)?;
        let start = usize::try_from(r.offset).unwrap_or(usize::MAX);
        for (i, (old, new)) in before.iter().zip(after).enumerate() {
            if old != new {
                if let Some(dst) = start.checked_add(i).and_then(|at| b.get_mut(at)) {
                    *dst = *new;
                }
            }
        }
    }
    Ok(())
}
