//! The lane compiler: finalized NIR → a compact register program run over
//! [`LANES`] invocations at once (the software driver's [`ShaderCompiler`]).
//!
//! * [`compile`](mod@compile): interface ([`ShaderInfo`]) from the IO intrinsics,
//!   register assignment, masked structured control flow, phis, local arrays.
//! * [`alu`]: ALU lowering and lane kernels (exactly the opcode table's semantics).
//! * [`tex`]: texture instructions through [`crate::texture`].
//! * [`program`]: the instruction set and the masked-write helpers.
//!
//! Running ([`LaneShader::run`]) is one `match` per instruction per batch of 16 lanes
//! over a register file kept in the thread's scratch vector; constants and local
//! arrays are (re)initialised per batch. Every executed instruction counts [`LANES`] lane instructions against the
//! draw's [`crate::exec::Budget`], charged at loop back-edges and at the end, so endless
//! loops stop with [`Error::BudgetExceeded`].
//!
//! Semantics follow the reference interpreter `rgl_nir::eval` (the `lanes_eval` test
//! compares them on the piglit corpus): `undef` is 0; reads of uniforms, UBOs,
//! inputs and local arrays outside their range give 0 and such writes are dropped;
//! derivatives are fine 2×2-quad differences in fragment shaders and 0 elsewhere;
//! interpolated inputs arrive interpolated by the driver (barycentric loads are 0);
//! `gl_FragCoord`, `gl_PointCoord`, `gl_FrontFacing` and the FS primitive id come from
//! the driver's system values.

pub mod alu;
pub mod compile;
pub mod program;
pub mod tex;

use std::sync::Arc;

use program::{store, ImageOp, ImageOpKind, Op, Program, SysKind, MAX_DEPTH};

use crate::driver::ShaderStage;
use crate::exec::{
    ddx, ddy, Invocation, Reg, Resources, ShaderCompiler, ShaderExec, ShaderInfo, ALL_LANES, LANES,
};
use crate::Result;
use rgl_nir::options::CompilerOptions;

/// The NIR → lane-program compiler.
#[derive(Clone, Copy, Debug, Default)]
pub struct LaneCompiler;

impl ShaderCompiler for LaneCompiler {
    fn compile(&self, nir: &rgl_nir::ir::Shader) -> Result<Arc<dyn ShaderExec>> {
        Ok(Arc::new(LaneShader::new(nir)?))
    }
    /// Lowered IO (the lane program reads inputs and writes outputs by driver
    /// location), vector ALU (one lane op per component), indirect temporaries
    /// lowered to if-trees (the rest is addressed as scratch).
    fn compiler_options(&self, _stage: ShaderStage) -> CompilerOptions {
        CompilerOptions {
            lower_io: true,
            lower_to_scalar: false,
            lower_indirect_temps: true,
        }
    }
}

/// A compiled shader.
#[derive(Debug)]
pub struct LaneShader {
    info: ShaderInfo,
    prog: Program,
}

impl LaneShader {
    /// Compiles a finalized shader (vertex, geometry or fragment).
    pub fn new(nir: &rgl_nir::ir::Shader) -> Result<LaneShader> {
        let (info, prog) = compile::compile(nir)?;
        Ok(LaneShader { info, prog })
    }
    /// Instructions in the program.
    pub fn instruction_count(&self) -> usize {
        self.prog.ops.len()
    }
    /// Registers the program uses.
    pub fn register_count(&self) -> u32 {
        self.prog.nregs
    }
}

impl ShaderExec for LaneShader {
    fn info(&self) -> &ShaderInfo {
        &self.info
    }

    fn run(&self, inv: &mut Invocation<'_>) -> Result<()> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2 (checked just above); `run_avx2` is the
            // same safe code compiled with AVX2 enabled.
            return unsafe { self.run_avx2(inv) };
        }
        self.run_invocations(inv)
    }
}

/// Where a compute batch stopped at a `barrier()`: the next instruction and
/// the control-flow masks, so its next run continues there (the registers stay
/// in the batch's own scratch file).
#[derive(Clone, Debug)]
pub(crate) struct Suspended {
    pc: usize,
    exec: u32,
    m_a: [u32; MAX_DEPTH],
    m_b: [u32; MAX_DEPTH],
}

/// Runs one [`Op::Image`] over the executing lanes (`exec`); stores and
/// atomics only for the live ones (never helper lanes).
#[inline(never)]
fn run_image(im: &ImageOp, res: &Resources<'_>, regs: &mut [Reg], exec: u32, live: u32) {
    let index = regs[im.image as usize].0;
    let coord = |l: usize| im.coord.map(|r| regs[r as usize].0[l]);
    let mut out = [[0u32; LANES]; 4];
    for l in 0..LANES {
        let on = match im.kind {
            ImageOpKind::Store | ImageOpKind::Atomic(_) => exec & live & (1 << l) != 0,
            _ => exec & (1 << l) != 0,
        };
        if !on {
            continue;
        }
        let view = res.image(index[l]);
        match im.kind {
            ImageOpKind::Load => {
                let t = view.load(im.dim, im.array, coord(l));
                for (c, o) in out.iter_mut().enumerate() {
                    o[l] = t[c];
                }
            }
            ImageOpKind::Store => {
                let v = im.value.map(|r| regs[r as usize].0[l]);
                view.store(im.dim, im.array, coord(l), v);
            }
            ImageOpKind::Atomic(op) => {
                let data = regs[im.value[0] as usize].0[l];
                let swap = op.is_swap().then(|| regs[im.value[1] as usize].0[l]);
                out[0][l] = view.atomic(im.dim, im.array, coord(l), op, data, swap);
            }
            ImageOpKind::Size => {
                let s = view.size(im.dim, im.array);
                for (c, o) in out.iter_mut().enumerate() {
                    o[l] = s[c];
                }
            }
            ImageOpKind::Samples => out[0][l] = view.samples(),
        }
    }
    for c in 0..usize::from(im.n.min(4)) {
        store(regs, im.d[c], exec, out[c]);
    }
}

/// What a compute batch adds to an [`Invocation`] (see [`crate::compute`]).
pub(crate) struct ComputeBatch<'a> {
    /// The workgroup's shared memory, as 32-bit words.
    pub shared: &'a mut [u32],
    /// In: where to continue (`None` starts the program). Out: where the batch
    /// stopped at a workgroup barrier, or `None` when it ran to the end.
    pub resume: Option<Suspended>,
}

impl LaneShader {
    /// Compiles a finalized compute shader (explicit storage and shared IO,
    /// compute system values) for [`crate::compute`].
    pub(crate) fn new_compute(nir: &rgl_nir::ir::Shader) -> Result<LaneShader> {
        LaneShader::new(nir)
    }

    /// Runs one batch of a compute workgroup (lanes `inv.mask`) until it ends
    /// or reaches a workgroup barrier; `cs.resume` says which on return.
    pub(crate) fn run_compute(
        &self,
        inv: &mut Invocation<'_>,
        cs: &mut ComputeBatch<'_>,
    ) -> Result<()> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2 (checked just above); the callee is
            // the same safe code compiled with AVX2 enabled.
            return unsafe { self.run_compute_avx2(inv, cs) };
        }
        self.run_body(inv, Some(cs))
    }

    /// [`LaneShader::run_compute`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn run_compute_avx2(
        &self,
        inv: &mut Invocation<'_>,
        cs: &mut ComputeBatch<'_>,
    ) -> Result<()> {
        self.run_body(inv, Some(cs))
    }

    /// [`LaneShader::run_body`] compiled for AVX2 (8-wide lane loops).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn run_avx2(&self, inv: &mut Invocation<'_>) -> Result<()> {
        self.run_invocations(inv)
    }

    /// Runs a vertex, geometry or fragment batch: once, or for a geometry
    /// shader with `layout(invocations = N)` once per invocation with
    /// `gl_InvocationID` = 0..N-1 (GLSL 4.00 §4.4.1.2 / ARB_gpu_shader5: "the
    /// geometry shader is run N times for each input primitive"). The batch's
    /// lanes are primitives, so each lane's vertices come in invocation order,
    /// and every invocation's last strip is closed before the next one starts
    /// (outputs of different invocations never join one strip).
    #[inline(always)]
    fn run_invocations(&self, inv: &mut Invocation<'_>) -> Result<()> {
        let n = self.prog.gs_invocations.max(1);
        for i in 0..n {
            if i > 0 {
                if let Some(sink) = inv.gs.as_mut() {
                    sink.end_primitive(inv.mask & ALL_LANES);
                }
            }
            self.run_body_at(inv, None, i)?;
        }
        Ok(())
    }

    #[inline(always)]
    fn run_body(&self, inv: &mut Invocation<'_>, cs: Option<&mut ComputeBatch<'_>>) -> Result<()> {
        self.run_body_at(inv, cs, 0)
    }

    /// The interpreter loop: one `match` per instruction per batch. A compute
    /// batch (`cs`) may start from where it was suspended and suspends at
    /// workgroup barriers; draw stages have no barriers to stop at.
    /// `invocation` is the geometry shader's `gl_InvocationID` of this run.
    #[inline(always)]
    fn run_body_at(
        &self,
        inv: &mut Invocation<'_>,
        cs: Option<&mut ComputeBatch<'_>>,
        invocation: u32,
    ) -> Result<()> {
        let p = &self.prog;
        let regs = &mut *inv.scratch;
        let n = p.nregs as usize;
        if regs.len() < n {
            regs.resize(n, Reg::default());
        }
        let (shared, resume_slot): (&mut [u32], Option<&mut Option<Suspended>>) = match cs {
            Some(c) => (&mut *c.shared, Some(&mut c.resume)),
            None => (&mut [], None),
        };
        let live = inv.mask & ALL_LANES;
        let mut resume_slot = resume_slot;
        let resumed = resume_slot.as_deref_mut().and_then(Option::take);
        let (mut pc, mut exec, mut m_a, mut m_b) = match resumed {
            Some(s) => (s.pc, s.exec, s.m_a, s.m_b),
            None => {
                // Constants are rewritten every batch: the scratch file is shared
                // with other shaders of the thread, which may have used these
                // registers.
                for &(r, v) in &p.consts {
                    regs[r as usize] = Reg::splat_u(v);
                }
                for (base, init) in &p.locals {
                    for (k, &w) in init.iter().enumerate() {
                        regs[*base as usize + k] = Reg::splat_u(w);
                    }
                }
                for o in inv.outputs.iter_mut() {
                    *o = Reg::default();
                }
                let exec = if p.fragment { ALL_LANES } else { live };
                (0usize, exec, [0u32; MAX_DEPTH], [0u32; MAX_DEPTH])
            }
        };
        let ninputs = self.info.inputs.len();
        let mut count: u64 = 0;
        let ops = &p.ops[..];
        while let Some(op) = ops.get(pc) {
            count += 1;
            pc += 1;
            match op {
                Op::Un { f, d, a } => alu::run_un(regs, exec, *f, *d, *a),
                Op::Bin { f, d, a, b } => alu::run_bin(regs, exec, *f, *d, *a, *b),
                Op::Tri { f, d, a, b, c } => alu::run_tri(regs, exec, *f, *d, *a, *b, *c),
                Op::UnN { f, n, d, a } => {
                    for k in 0..*n as usize {
                        alu::run_un(regs, exec, *f, d[k], a[k]);
                    }
                }
                Op::BinN { f, n, d, a, b } => {
                    for k in 0..*n as usize {
                        alu::run_bin(regs, exec, *f, d[k], a[k], b[k]);
                    }
                }
                Op::TriN { f, n, d, a, b, c } => {
                    for k in 0..*n as usize {
                        alu::run_tri(regs, exec, *f, d[k], a[k], b[k], c[k]);
                    }
                }
                Op::Dot { n, d, a, b } => alu::run_dot(regs, exec, *n, *d, a, b),
                Op::Fold {
                    op,
                    bits,
                    comp,
                    d,
                    srcs,
                } => alu::run_fold(regs, exec, *op, *bits, *comp, *d, srcs),
                Op::LoadInput { d, i } => {
                    let v = inv.inputs.get(*i as usize).copied().unwrap_or_default();
                    store(regs, *d, exec, v.0);
                }
                Op::LoadInputIndirect {
                    d,
                    off,
                    table,
                    comp,
                } => {
                    let o = regs[*off as usize].0;
                    let mut v = [0u32; LANES];
                    for l in 0..LANES {
                        let idx = table.get(o[l] as usize).copied().unwrap_or(-1);
                        if idx >= 0 && *comp < 4 {
                            v[l] = inv
                                .inputs
                                .get(idx as usize * 4 + *comp as usize)
                                .map_or(0, |r| r.0[l]);
                        }
                    }
                    store(regs, *d, exec, v);
                }
                Op::LoadVertexInput {
                    d,
                    vertex,
                    table,
                    off,
                    comp,
                    vertices,
                } => {
                    let vx = regs[*vertex as usize].0;
                    let o = off.map(|r| regs[r as usize].0).unwrap_or([0; LANES]);
                    let mut v = [0u32; LANES];
                    for l in 0..LANES {
                        let idx = table.get(o[l] as usize).copied().unwrap_or(-1);
                        if idx >= 0 && vx[l] < *vertices && *comp < 4 {
                            let w =
                                vx[l] as usize * ninputs * 4 + idx as usize * 4 + *comp as usize;
                            v[l] = inv.inputs.get(w).map_or(0, |r| r.0[l]);
                        }
                    }
                    store(regs, *d, exec, v);
                }
                Op::LoadOutput { d, o } => {
                    let v = inv.outputs.get(*o as usize).copied().unwrap_or_default();
                    store(regs, *d, exec, v.0);
                }
                Op::StoreOutput { o, a } => {
                    let v = regs[*a as usize].0;
                    if let Some(out) = inv.outputs.get_mut(*o as usize) {
                        store(std::slice::from_mut(out), 0, exec, v);
                    }
                }
                Op::StoreOutputIndirect {
                    a,
                    off,
                    table,
                    comp,
                } => {
                    let v = regs[*a as usize].0;
                    let o = regs[*off as usize].0;
                    for l in 0..LANES {
                        if exec & (1 << l) == 0 {
                            continue;
                        }
                        let idx = table.get(o[l] as usize).copied().unwrap_or(-1);
                        if idx >= 0 {
                            if let Some(r) = inv.outputs.get_mut(idx as usize * 4 + *comp as usize)
                            {
                                r.0[l] = v[l];
                            }
                        }
                    }
                }
                Op::LoadUniform { d, slot, comp } => {
                    let v = inv.res.uniform(*slot as usize, *comp as usize);
                    store(regs, *d, exec, [v; LANES]);
                }
                Op::LoadUniformIndirect { d, base, off, comp } => {
                    let o = regs[*off as usize].0;
                    let mut v = [0u32; LANES];
                    for l in 0..LANES {
                        let slot = i64::from(*base) + i64::from(o[l] as i32);
                        if let Ok(s) = usize::try_from(slot) {
                            v[l] = inv.res.uniform(s, *comp as usize);
                        }
                    }
                    store(regs, *d, exec, v);
                }
                Op::LoadUbo {
                    d,
                    block,
                    off,
                    comp,
                } => {
                    let bl = regs[*block as usize].0;
                    let o = regs[*off as usize].0;
                    let mut v = [0u32; LANES];
                    for l in 0..LANES {
                        let byte = i64::from(o[l] as i32) + 4 * i64::from(*comp);
                        if let Ok(byte) = u64::try_from(byte) {
                            v[l] = inv.res.ubo_word(bl[l] as usize, byte);
                        }
                    }
                    store(regs, *d, exec, v);
                }
                Op::LoadSsbo {
                    d,
                    block,
                    off,
                    comp,
                } => {
                    let bl = regs[*block as usize].0;
                    let o = regs[*off as usize].0;
                    let mut v = [0u32; LANES];
                    for l in 0..LANES {
                        if exec & (1 << l) != 0 {
                            let byte = i64::from(o[l] as i32) + 4 * i64::from(*comp);
                            v[l] = inv.res.storage(bl[l]).load(byte);
                        }
                    }
                    store(regs, *d, exec, v);
                }
                Op::StoreSsbo {
                    a,
                    block,
                    off,
                    comp,
                } => {
                    let bl = regs[*block as usize].0;
                    let o = regs[*off as usize].0;
                    let v = regs[*a as usize].0;
                    for l in 0..LANES {
                        if exec & live & (1 << l) != 0 {
                            let byte = i64::from(o[l] as i32) + 4 * i64::from(*comp);
                            inv.res.storage(bl[l]).store(byte, v[l]);
                        }
                    }
                }
                Op::SsboAtomic {
                    d,
                    block,
                    off,
                    data,
                    swap,
                    op,
                } => {
                    let bl = regs[*block as usize].0;
                    let o = regs[*off as usize].0;
                    let x = regs[*data as usize].0;
                    let y = swap.map(|r| regs[r as usize].0);
                    let mut v = [0u32; LANES];
                    for l in 0..LANES {
                        if exec & live & (1 << l) != 0 {
                            v[l] = inv.res.storage(bl[l]).atomic(
                                *op,
                                i64::from(o[l] as i32),
                                x[l],
                                y.map(|y| y[l]),
                            );
                        }
                    }
                    store(regs, *d, exec, v);
                }
                Op::SsboSize { d, block } => {
                    let bl = regs[*block as usize].0;
                    let mut v = [0u32; LANES];
                    for l in 0..LANES {
                        let size = inv.res.storage(bl[l]).size();
                        v[l] = u32::try_from(size).unwrap_or(u32::MAX);
                    }
                    store(regs, *d, exec, v);
                }
                Op::Image(im) => run_image(im, &inv.res, regs, exec, live),
                Op::LoadShared { d, off, base, comp } => {
                    let o = regs[*off as usize].0;
                    let mut v = [0u32; LANES];
                    for l in 0..LANES {
                        if exec & (1 << l) != 0 {
                            if let Some(w) = shared_word(shared, o[l], *base, *comp) {
                                v[l] = shared[w];
                            }
                        }
                    }
                    store(regs, *d, exec, v);
                }
                Op::StoreShared { a, off, base, comp } => {
                    let o = regs[*off as usize].0;
                    let v = regs[*a as usize].0;
                    for l in 0..LANES {
                        if exec & (1 << l) != 0 {
                            if let Some(w) = shared_word(shared, o[l], *base, *comp) {
                                shared[w] = v[l];
                            }
                        }
                    }
                }
                Op::SharedAtomic {
                    d,
                    off,
                    base,
                    data,
                    swap,
                    op,
                } => {
                    let o = regs[*off as usize].0;
                    let x = regs[*data as usize].0;
                    let y = swap.map(|r| regs[r as usize].0);
                    let mut v = [0u32; LANES];
                    for l in 0..LANES {
                        if exec & (1 << l) != 0 {
                            if let Some(w) = shared_word(shared, o[l], *base, 0) {
                                v[l] = shared[w];
                                shared[w] =
                                    crate::storage::atomic_result(*op, v[l], x[l], y.map(|y| y[l]));
                            }
                        }
                    }
                    store(regs, *d, exec, v);
                }
                Op::Barrier => {
                    if let Some(slot) = resume_slot.as_deref_mut() {
                        inv.budget.charge(count * LANES as u64)?;
                        *slot = Some(Suspended { pc, exec, m_a, m_b });
                        return Ok(());
                    }
                }
                Op::Fence => std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst),
                Op::SysVal { d, v } => {
                    let s = inv.sys;
                    let val = match v {
                        SysKind::FragCoord(c) => s.frag_coord[(*c as usize).min(3)].0,
                        SysKind::FrontFace => s.front_face.0.map(|x| (x != 0) as u32),
                        SysKind::PointCoord(c) => s.point_coord[(*c as usize).min(1)].0,
                        SysKind::VertexId => s.vertex_id.0,
                        SysKind::InstanceId => s.instance_id.0,
                        SysKind::PrimitiveId => s.primitive_id.0,
                        SysKind::Helper => {
                            let mut h = [0u32; LANES];
                            for (l, x) in h.iter_mut().enumerate() {
                                *x = (live >> l & 1 == 0) as u32;
                            }
                            h
                        }
                        SysKind::Const(w) => [*w; LANES],
                        SysKind::InvocationId => [invocation; LANES],
                        SysKind::LocalId(c) => s.local_id[(*c as usize).min(2)].0,
                        SysKind::WorkgroupId(c) => [s.workgroup_id[(*c as usize).min(2)]; LANES],
                        SysKind::NumWorkgroups(c) => {
                            [s.num_workgroups[(*c as usize).min(2)]; LANES]
                        }
                    };
                    store(regs, *d, exec, val);
                }
                Op::Ddx { d, a, coarse } => {
                    let v = ddx(&regs[*a as usize], *coarse);
                    store(regs, *d, exec, v.0);
                }
                Op::Ddy { d, a, coarse } => {
                    let v = ddy(&regs[*a as usize], *coarse);
                    store(regs, *d, exec, v.0);
                }
                Op::Clock { lo, hi } => {
                    let [l, h] = rgl_nir::eval::clock::read_2x32();
                    store(regs, *lo, exec, [l; LANES]);
                    store(regs, *hi, exec, [h; LANES]);
                }
                Op::DerefIndex {
                    d,
                    parent,
                    idx,
                    stride,
                    len,
                } => {
                    let i = regs[*idx as usize].0;
                    let par = parent.map(|r| regs[r as usize].0).unwrap_or([0; LANES]);
                    let mut v = [0u32; LANES];
                    for l in 0..LANES {
                        v[l] = if i[l] < *len {
                            par[l].saturating_add(i[l].saturating_mul(*stride))
                        } else {
                            u32::MAX
                        };
                    }
                    store(regs, *d, exec, v);
                }
                Op::LoadLocal {
                    d,
                    base,
                    size,
                    off,
                    k,
                    bool1,
                } => {
                    let o = off.map(|r| regs[r as usize].0).unwrap_or([0; LANES]);
                    let mut v = [0u32; LANES];
                    for l in 0..LANES {
                        let e = o[l].saturating_add(*k);
                        if e < *size {
                            v[l] = regs[(*base + e) as usize].0[l];
                            if *bool1 {
                                v[l] = (v[l] != 0) as u32;
                            }
                        }
                    }
                    store(regs, *d, exec, v);
                }
                Op::StoreLocal {
                    a,
                    base,
                    size,
                    off,
                    k,
                } => {
                    let o = off.map(|r| regs[r as usize].0).unwrap_or([0; LANES]);
                    let v = regs[*a as usize].0;
                    for l in 0..LANES {
                        let e = o[l].saturating_add(*k);
                        if exec & (1 << l) != 0 && e < *size {
                            regs[(*base + e) as usize].0[l] = v[l];
                        }
                    }
                }
                Op::Tex(t) => tex::run_tex(regs, exec, t, &inv.res),
                Op::Kill { cond } => {
                    let lanes = match cond {
                        Some(c) => {
                            let c = &regs[*c as usize].0;
                            let mut m = 0u32;
                            for (l, x) in c.iter().enumerate() {
                                m |= ((*x != 0) as u32) << l;
                            }
                            exec & m
                        }
                        None => exec,
                    };
                    inv.kill |= lanes & live;
                    exec &= !lanes;
                }
                Op::Emit => {
                    if let Some(sink) = inv.gs.as_mut() {
                        sink.emit_vertex(exec & live, inv.outputs);
                    }
                }
                Op::EndPrim => {
                    if let Some(sink) = inv.gs.as_mut() {
                        sink.end_primitive(exec & live);
                    }
                }
                Op::If {
                    cond,
                    slot,
                    else_pc,
                } => {
                    let c = &regs[*cond as usize].0;
                    let mut m = 0u32;
                    for (l, x) in c.iter().enumerate() {
                        m |= ((*x != 0) as u32) << l;
                    }
                    let s = *slot as usize;
                    m_a[s] = exec & !m;
                    exec &= m;
                    if exec == 0 {
                        pc = *else_pc as usize;
                    }
                }
                Op::Else { slot, end_pc } => {
                    let s = *slot as usize;
                    m_b[s] = exec;
                    exec = m_a[s];
                    if exec == 0 {
                        pc = *end_pc as usize;
                    }
                }
                Op::EndIf { slot } => exec |= m_b[*slot as usize],
                Op::Loop { slot, exit_pc } => {
                    let s = *slot as usize;
                    m_a[s] = 0;
                    m_b[s] = 0;
                    if exec == 0 {
                        pc = *exit_pc as usize;
                    }
                }
                Op::EndLoop { slot, body_pc } => {
                    let s = *slot as usize;
                    exec |= m_b[s];
                    m_b[s] = 0;
                    inv.budget.charge(count * LANES as u64)?;
                    count = 0;
                    if exec != 0 {
                        pc = *body_pc as usize;
                    } else {
                        exec = m_a[s];
                    }
                }
                Op::Break { slot } => {
                    m_a[*slot as usize] |= exec;
                    exec = 0;
                }
                Op::Continue { slot } => {
                    m_b[*slot as usize] |= exec;
                    exec = 0;
                }
                Op::BreakIf { cond, slot, end_pc } | Op::ContinueIf { cond, slot, end_pc } => {
                    let c = &regs[*cond as usize].0;
                    let mut m = 0u32;
                    for (l, x) in c.iter().enumerate() {
                        m |= ((*x != 0) as u32) << l;
                    }
                    let lanes = exec & m;
                    if matches!(op, Op::BreakIf { .. }) {
                        m_a[*slot as usize] |= lanes;
                    } else {
                        m_b[*slot as usize] |= lanes;
                    }
                    exec &= !lanes;
                    if exec == 0 && *end_pc != u32::MAX {
                        pc = *end_pc as usize;
                    }
                }
                Op::Stop => exec = 0,
            }
        }
        inv.budget.charge(count * LANES as u64)?;
        Ok(())
    }
}

/// The shared memory word a lane's access at byte `off + base + 4 * comp`
/// reads or writes: `None` outside the workgroup's shared memory or at a byte
/// offset that is no multiple of 4 (only a broken or hostile shader makes one;
/// its loads read 0 and its stores are dropped, as out-of-range storage
/// accesses are).
#[inline(always)]
fn shared_word(shared: &[u32], off: u32, base: i32, comp: u8) -> Option<usize> {
    let byte = i64::from(off as i32) + i64::from(base) + 4 * i64::from(comp);
    if byte < 0 || byte % 4 != 0 {
        return None;
    }
    let w = usize::try_from(byte / 4).ok()?;
    (w < shared.len()).then_some(w)
}
