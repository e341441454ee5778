//! Compute dispatch in the software driver (GL 4.3 §19, "Compute Shaders").
//!
//! [`create`] compiles a compute shader's finalized NIR with the lane compiler
//! ([`LaneShader::new_compute`]); [`dispatch`] then spreads the workgroups over
//! the driver's threads, each thread taking the next workgroup of the dispatch
//! until none is left. A workgroup runs on one thread as batches of
//! [`LANES`] invocations (in `gl_LocalInvocationIndex` order), each with its
//! own register file. `barrier()` suspends a batch ([`ComputeBatch::resume`]):
//! the thread runs every batch of the workgroup up to the barrier before any
//! goes on, as llvmpipe's compute coroutines do, so every write before the
//! barrier is seen by every read after it. A barrier is only allowed in
//! uniform control flow (GLSL 4.30 §8.16); a batch that ends or skips one
//! never blocks the others. Shared memory is one zeroed word array per
//! workgroup; its atomics are atomic because the workgroup's lanes run one
//! after another on one thread.
//!
//! On [`ComputeEngine::Jit`] (the `jit` driver's engine) the same workgroup
//! loop runs the JIT's native build of the shader
//! ([`crate::jit::compute::JitComputeShader`], compiled at the first dispatch):
//! a batch returns at each barrier with its live values spilled to its own
//! scratch and resumes after it on the next call. A shader the JIT does not
//! compile (images; a barrier in divergent control flow; named in a
//! `log::info!` line) runs on the lane program.
//!
//! Storage buffers are addressed as the compiler's binding space
//! ([`rgl_nir::options::storage_bindings`]): block `b` of `load_ssbo(b, ...)`
//! reads the range bound at [`ComputeDispatch::storage`]`[b]`. Each range is
//! copied into a [`StorageCopy`] of atomic words shared by the threads (every
//! access bounds-checked: out-of-range writes are dropped, reads return 0, the
//! atomics are atomic across threads), and only the bytes the dispatch changed
//! are written back, so bindings that alias one buffer keep each other's writes.
//!
//! Samplers read the driver's bound sampler views and states (the slots the
//! state tracker binds for the program's sampler indices, as for a draw)
//! through the lane program's texture ops. Compute has no derivatives, so an
//! implicit-LOD lookup samples at LOD 0 (GLSL 4.30 §8.9: implicit LOD is only
//! defined in fragment shaders; Mesa's `nir_lower_tex` uses LOD 0 outside
//! them), and `texelFetch` out of range returns 0.
//!
//! The instruction budget is the driver's, per batch of invocations of one
//! workgroup (as draws refill it per batch): a long but finite dispatch runs to
//! the end, an endless loop stops with [`Error::BudgetExceeded`].
//!
//! A shader the lane compiler cannot build (a construct it lacks, named in a
//! `log::info!` line) runs on the reference interpreter
//! ([`rgl_nir::eval::evaluate_workgroup_owned`]) instead: workgroups one after
//! another, their invocations split at `barrier()` and atomics evaluated one
//! invocation at a time, the budget shared by the whole dispatch. It samples
//! procedural stand-ins rather than bound textures and has no images, so a
//! shader with samplers or images never runs there: it fails with
//! [`Error::Unsupported`] instead.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use rgl_nir::eval::{self, EvalErrorKind, EvalInput, WorkgroupInput};
use rgl_nir::ir::{Shader, Stage, StructDef, Type};

use crate::driver::{BufferRange, ComputeDispatch, SamplerState, SamplerView};
use crate::error::{Error, Result};
use crate::exec::{Budget, Invocation, Reg, Resources, ShaderExec, SysVals, ALL_LANES, LANES};
use crate::image::ImageCopies;
use crate::jit::compute::{BatchRun, JitComputeShader};
use crate::jit::emit::UboRange;
use crate::lanes::{ComputeBatch, LaneShader, Suspended};
use crate::soft::{Table, Texture};
use crate::storage::{StorageCopy, StorageView};

/// GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS of the software driver: what the
/// reference interpreter runs in one workgroup (the lane path has no lower
/// limit).
pub const MAX_WORKGROUP_INVOCATIONS: u32 = eval::MAX_WORKGROUP_INVOCATIONS;

/// Subgroup size compute invocations see (one invocation per subgroup, as the
/// lane compiler's `load_subgroup_size`: `gl_SubGroupSizeARB` is 1).
const SUBGROUP_SIZE: u32 = 1;

/// What a compute dispatch reads besides storage buffers: the bound
/// default-block uniforms, uniform buffer ranges and sampler slots.
pub(crate) struct ComputeInputs<'a> {
    /// Default-block uniform slots.
    pub uniforms: &'a [[u32; 4]],
    /// Uniform block ranges by slot.
    pub ubos: &'a [Option<BufferRange>],
    /// Sampler views by slot (the program's sampler indices, as for draws).
    pub views: &'a [Option<SamplerView>],
    /// Sampler states by slot (unbound: the default state).
    pub samplers: &'a [Option<SamplerState>],
    /// The driver's instruction budget (per batch on the lane path, for the
    /// dispatch on the reference path).
    pub budget: u64,
    /// Threads to spread the workgroups over.
    pub threads: usize,
    /// The engine to run on.
    pub engine: ComputeEngine,
}

/// What runs a compute dispatch ([`crate::SoftDriver::set_compute_engine`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum ComputeEngine {
    /// The lane program, workgroups spread over the driver's threads; shaders
    /// the lane compiler cannot build still run on the reference interpreter.
    #[default]
    Lanes,
    /// The reference interpreter (`rgl_nir::eval`), one workgroup at a time.
    Reference,
    /// Native code from the JIT ([`crate::jit::compute`]), workgroups spread
    /// over the driver's threads as on the lane path; shaders the JIT does not
    /// compile (a construct named in a `log::info!` line) run on the lane
    /// program, and those the lane compiler cannot build on the reference
    /// interpreter.
    Jit,
}

/// A compiled compute shader: its NIR, and the lane program when the lane
/// compiler could build one.
#[derive(Debug)]
pub(crate) struct ComputeProgram {
    nir: Arc<Shader>,
    lanes: Option<LaneShader>,
    /// The JIT's build, made at the first dispatch on [`ComputeEngine::Jit`]
    /// (`None`: the JIT refused the shader, which then runs on the lanes).
    jit: OnceLock<Option<JitComputeShader>>,
}

impl ComputeProgram {
    /// The JIT's build of the shader, compiled on first use.
    fn jit(&self) -> Option<&JitComputeShader> {
        self.jit
            .get_or_init(|| {
                let lanes = self.lanes.as_ref()?;
                if !crate::jit::host_supported() {
                    return None;
                }
                match JitComputeShader::new(&self.nir, lanes.info()) {
                    Ok(j) => Some(j),
                    Err(e) => {
                        log::info!("jit: compute shader runs on the interpreter: {e}");
                        None
                    }
                }
            })
            .as_ref()
    }
}

/// Checks `nir` ([`check_shader`]) and compiles it for [`dispatch`].
pub(crate) fn create(nir: &Shader) -> Result<ComputeProgram> {
    check_shader(nir)?;
    let lanes = match LaneShader::new_compute(nir) {
        Ok(l) => Some(l),
        // The reference interpreter has no bound texels for images, and
        // samples procedural stand-ins instead of the bound textures.
        Err(e) if uses_images(nir) || uses_samplers(nir) => return Err(e),
        Err(e) => {
            log::info!("compute shader runs on the reference interpreter: {e}");
            None
        }
    };
    Ok(ComputeProgram {
        nir: Arc::new(nir.clone()),
        lanes,
        jit: OnceLock::new(),
    })
}

/// Whether the JIT compiles compute shader `nir` ([`ComputeEngine::Jit`]):
/// `Ok` when it does, else the error naming what it refuses (the dispatch then
/// runs on the lane program). For tests and tools.
pub fn jit_build(nir: &Shader) -> Result<()> {
    check_shader(nir)?;
    let lanes = LaneShader::new_compute(nir)?;
    JitComputeShader::new(nir, lanes.info()).map(|_| ())
}

/// Checks that `nir` is a compute shader the driver can run: the compute
/// stage and a fixed workgroup size within [`MAX_WORKGROUP_INVOCATIONS`].
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
    has_opaque(ty, structs, depth, false)
}

/// Whether `ty` is or contains an image (`images`) or a sampler.
fn has_opaque(ty: &Type, structs: &[StructDef], depth: u32, images: bool) -> bool {
    if depth > 64 {
        return false;
    }
    match ty {
        Type::Sampler { .. } => !images,
        Type::Image { .. } => images,
        Type::Array(e, _) => has_opaque(e, structs, depth + 1, images),
        Type::Struct(id) => structs
            .get(rgl_nir::arena::EntityRef::index(*id))
            .is_some_and(|d| {
                d.fields
                    .iter()
                    .any(|(_, t)| has_opaque(t, structs, depth + 1, images))
            }),
        _ => false,
    }
}

/// Runs `dispatch` of `program` over the driver's `buffers` and, for its
/// images, `textures`.
pub(crate) fn dispatch(
    program: &ComputeProgram,
    dispatch: &ComputeDispatch,
    inputs: &ComputeInputs<'_>,
    buffers: &mut Table<Vec<u8>>,
    textures: &mut Table<Texture>,
) -> Result<()> {
    let jit = match inputs.engine {
        ComputeEngine::Jit => program.jit(),
        _ => None,
    };
    match &program.lanes {
        Some(lanes) if inputs.engine != ComputeEngine::Reference => {
            dispatch_lanes(&program.nir, lanes, jit, dispatch, inputs, buffers, textures)
        }
        _ if uses_images(&program.nir) => Err(Error::Unsupported(
            "images in compute shaders on the reference interpreter (rgl_nir::eval has no bound texels)"
                .into(),
        )),
        // `rgl_nir::eval` samples procedural stand-in textures, not the bound
        // views: refused rather than run with wrong texels.
        _ if uses_samplers(&program.nir) => Err(Error::Unsupported(format!(
            "textures in compute shaders on the reference interpreter (rgl_nir::eval has no bound texels; sampler `{}`)",
            sampler_name(&program.nir)
        ))),
        _ => dispatch_reference(&program.nir, dispatch, inputs, buffers),
    }
}

/// Whether a shader declares an image variable.
fn uses_images(nir: &Shader) -> bool {
    nir.variables
        .iter()
        .any(|(_, v)| has_opaque(&v.ty, &nir.structs, 0, true))
}

/// Whether a shader declares a sampler variable.
fn uses_samplers(nir: &Shader) -> bool {
    nir.variables
        .iter()
        .any(|(_, v)| has_sampler(&v.ty, &nir.structs, 0))
}

/// The name of a shader's first sampler variable (for messages).
fn sampler_name(nir: &Shader) -> &str {
    nir.variables
        .iter()
        .find(|(_, v)| has_sampler(&v.ty, &nir.structs, 0))
        .map_or("?", |(_, v)| v.name.as_str())
}

/// Runs `dispatch` on the lane program (or its JIT build `jit`), workgroups
/// spread over threads.
fn dispatch_lanes(
    shader: &Shader,
    lanes: &LaneShader,
    jit: Option<&JitComputeShader>,
    dispatch: &ComputeDispatch,
    inputs: &ComputeInputs<'_>,
    buffers: &mut Table<Vec<u8>>,
    textures: &mut Table<Texture>,
) -> Result<()> {
    let [gx, gy, gz] = dispatch.groups;
    let total = u64::from(gx) * u64::from(gy) * u64::from(gz);
    if total == 0 {
        return Ok(());
    }
    let size = shader.info.workgroup_size.ok_or_else(|| {
        Error::Unsupported("compute shaders with a variable workgroup size".into())
    })?;
    let copies: Vec<StorageCopy> = dispatch
        .storage
        .iter()
        .map(|r| range_slice(buffers, r.as_ref()).map(StorageCopy::new))
        .collect::<Result<_>>()?;
    let images = ImageCopies::new(textures, &dispatch.images)?;
    let result = (|| -> Result<()> {
        let ubos: Vec<&[u8]> = inputs
            .ubos
            .iter()
            .map(|r| range_slice(buffers, r.as_ref()))
            .collect::<Result<_>>()?;
        let views: Vec<StorageView<'_>> = copies.iter().map(StorageCopy::view).collect();
        let image_views = images.views();
        // Texel data is only read during the dispatch; image writes go to
        // `images`' copies and back after it.
        let texture_slots =
            crate::soft::draw::texture_bindings(textures, inputs.views, inputs.samplers);
        let res = Resources {
            uniforms: inputs.uniforms,
            ubos: &ubos,
            textures: &texture_slots,
            storage: &views,
            images: &image_views,
        };
        let group = Workgroup {
            lanes,
            jit,
            size,
            groups: dispatch.groups,
            shared_words: (shader.info.shared_size as usize).div_ceil(4),
            budget: inputs.budget,
        };
        let next = AtomicU64::new(0);
        let abort = AtomicBool::new(false);
        let worker = || -> Result<()> {
            let mut state = group.thread_state(&res);
            loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= total || abort.load(Ordering::Relaxed) {
                    return Ok(());
                }
                let id = [
                    (g % u64::from(gx)) as u32,
                    (g / u64::from(gx) % u64::from(gy)) as u32,
                    (g / (u64::from(gx) * u64::from(gy))) as u32,
                ];
                if let Err(e) = group.run(&mut state, id, &res) {
                    abort.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            }
        };
        let threads = inputs
            .threads
            .clamp(1, 64)
            .min(usize::try_from(total).unwrap_or(usize::MAX));
        let results: Vec<Result<()>> = std::thread::scope(|s| {
            let handles: Vec<_> = (1..threads).map(|_| s.spawn(worker)).collect();
            let mut r = vec![worker()];
            for h in handles {
                r.push(
                    h.join()
                        .unwrap_or_else(|_| Err(Error::Exec("compute thread panicked".into()))),
                );
            }
            r
        });
        results.into_iter().collect::<Result<Vec<()>>>()?;
        Ok(())
    })();
    // Image writes made before a failure stay, as storage writes do.
    images.write_back(textures);
    result?;
    for (range, copy) in dispatch.storage.iter().zip(&copies) {
        let Some(r) = range else { continue };
        let b = buffers.get_mut(r.buffer.0)?;
        let start = usize::try_from(r.offset).unwrap_or(usize::MAX);
        for (i, v) in copy.changes() {
            if let Some(dst) = start.checked_add(i).and_then(|at| b.get_mut(at)) {
                *dst = v;
            }
        }
    }
    Ok(())
}

/// What every workgroup of a lane dispatch shares.
struct Workgroup<'a> {
    lanes: &'a LaneShader,
    jit: Option<&'a JitComputeShader>,
    size: [u32; 3],
    groups: [u32; 3],
    shared_words: usize,
    budget: u64,
}

/// One thread's batches: per batch its register file, system values, budget
/// and suspension point; and the workgroup's shared memory.
struct ThreadState {
    files: Vec<Vec<Reg>>,
    sys: Vec<SysVals>,
    masks: Vec<u32>,
    budgets: Vec<Budget>,
    resume: Vec<Option<Suspended>>,
    done: Vec<bool>,
    shared: Vec<u32>,
    /// JIT batches: where each continues (0: the start).
    points: Vec<u32>,
    /// JIT: the uniform slots (padded to what the code reads unchecked) and
    /// the uniform block table (at least one entry) with its real length.
    uniforms: Vec<[u32; 4]>,
    ubos: Vec<UboRange>,
    ubo_count: usize,
}

impl Workgroup<'_> {
    /// The batches of one workgroup, with the local invocation IDs of their
    /// lanes (the same for every workgroup).
    fn thread_state(&self, res: &Resources<'_>) -> ThreadState {
        let [sx, sy, _] = self.size;
        let count = self.size.iter().map(|s| *s as usize).product::<usize>();
        let batches = count.div_ceil(LANES);
        let mut sys = Vec::with_capacity(batches);
        let mut masks = Vec::with_capacity(batches);
        for b in 0..batches {
            let mut s = SysVals {
                num_workgroups: self.groups,
                ..SysVals::default()
            };
            let mut mask = 0u32;
            for l in 0..LANES {
                let index = (b * LANES + l) as u32;
                if (index as usize) < count {
                    mask |= 1 << l;
                    s.local_id[0].0[l] = index % sx;
                    s.local_id[1].0[l] = index / sx % sy;
                    s.local_id[2].0[l] = index / (sx * sy);
                }
            }
            sys.push(s);
            masks.push(mask & ALL_LANES);
        }
        ThreadState {
            files: vec![Vec::new(); batches],
            sys,
            masks,
            budgets: vec![Budget::new(self.budget); batches],
            resume: vec![None; batches],
            done: vec![false; batches],
            shared: vec![0; self.shared_words],
            points: vec![0; batches],
            uniforms: match self.jit {
                Some(j) if res.uniforms.len() < j.min_uniforms() => {
                    let mut u = res.uniforms.to_vec();
                    u.resize(j.min_uniforms(), [0; 4]);
                    u
                }
                _ => Vec::new(),
            },
            ubos: res
                .ubos
                .iter()
                .map(|s| UboRange {
                    ptr: s.as_ptr(),
                    len: s.len() as u64,
                })
                .chain(std::iter::once(UboRange {
                    ptr: std::ptr::null(),
                    len: 0,
                }))
                .collect(),
            ubo_count: res.ubos.len(),
        }
    }

    /// Runs workgroup `id`: every batch to the next barrier, again and again,
    /// until every batch has ended.
    fn run(&self, st: &mut ThreadState, id: [u32; 3], res: &Resources<'_>) -> Result<()> {
        st.shared.fill(0);
        for b in 0..st.sys.len() {
            st.sys[b].workgroup_id = id;
            st.budgets[b].refill();
            st.resume[b] = None;
            st.done[b] = false;
            st.points[b] = 0;
        }
        if let Some(jit) = self.jit {
            return self.run_jit(jit, st, res);
        }
        loop {
            let mut suspended = false;
            for b in 0..st.sys.len() {
                if st.done[b] {
                    continue;
                }
                let mut inv = Invocation {
                    inputs: &[],
                    outputs: &mut [],
                    sys: &st.sys[b],
                    mask: st.masks[b],
                    kill: 0,
                    res: *res,
                    budget: &mut st.budgets[b],
                    scratch: &mut st.files[b],
                    gs: None,
                };
                let mut cs = ComputeBatch {
                    shared: &mut st.shared,
                    resume: st.resume[b].take(),
                };
                self.lanes.run_compute(&mut inv, &mut cs)?;
                match cs.resume {
                    Some(at) => {
                        st.resume[b] = Some(at);
                        suspended = true;
                    }
                    None => st.done[b] = true,
                }
            }
            if !suspended {
                return Ok(());
            }
        }
    }
}

impl Workgroup<'_> {
    /// [`Workgroup::run`] on the JIT's code: every batch to the next barrier,
    /// again and again, until every batch has ended.
    fn run_jit(
        &self,
        jit: &JitComputeShader,
        st: &mut ThreadState,
        res: &Resources<'_>,
    ) -> Result<()> {
        let uniforms: &[[u32; 4]] = if st.uniforms.is_empty() {
            res.uniforms
        } else {
            &st.uniforms
        };
        loop {
            let mut suspended = false;
            for b in 0..st.sys.len() {
                if st.done[b] {
                    continue;
                }
                let mut run = BatchRun {
                    uniforms,
                    ubos: &st.ubos,
                    ubo_count: st.ubo_count,
                    res,
                    sys: &st.sys[b],
                    live: st.masks[b],
                    shared: &mut st.shared,
                    scratch: &mut st.files[b],
                    budget: &mut st.budgets[b],
                    resume: &mut st.points[b],
                };
                jit.run_batch(&mut run)?;
                if st.points[b] != 0 {
                    suspended = true;
                } else {
                    st.done[b] = true;
                }
            }
            if !suspended {
                return Ok(());
            }
        }
    }
}

/// Runs `dispatch` of `shader` on the reference interpreter.
fn dispatch_reference(
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
fn range_slice<'a>(buffers: &'a Table<Vec<u8>>, range: Option<&BufferRange>) -> Result<&'a [u8]> {
    let Some(r) = range else {
        return Ok(&[]);
    };
    let b = buffers.get(r.buffer.0)?;
    let start = usize::try_from(r.offset).unwrap_or(usize::MAX).min(b.len());
    let end = usize::try_from(r.offset.saturating_add(r.size))
        .unwrap_or(usize::MAX)
        .min(b.len());
    Ok(&b[start..end])
}

/// [`range_slice`], copied.
fn range_bytes(buffers: &Table<Vec<u8>>, range: Option<&BufferRange>) -> Result<Vec<u8>> {
    range_slice(buffers, range).map(<[u8]>::to_vec)
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
