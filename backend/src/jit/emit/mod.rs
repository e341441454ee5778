//! The body emitter: one NIR function → Cranelift IR in a caller-supplied
//! [`FunctionBuilder`], for the lanes of `quads` 2×2 quads at once (SoA, as llvmpipe
//! does it: one SSA scalar component is one `i32x4` per quad; floats travel as their
//! bits and are bitcast at float ops).
//!
//! Everything that touches the outside goes through an [`Env`]: inputs, system
//! values, the live mask, uniforms, uniform blocks, textures, scratch memory and the
//! instruction budget. The emitter owns the rest: values, control flow, local arrays,
//! outputs (returned as values in [`BodyOutput`]) and discards (returned as a kill
//! mask). A caller wraps the body in whatever it needs: milestone 1 wraps it in a
//! loop over the quads of a 16-lane batch reading and writing the
//! [`crate::exec::Invocation`] registers (see [`super::invocation`]); a fused pixel
//! pipeline can interpolate inputs in its `Env` and blend the returned outputs.
//!
//! Execution masks: booleans are all-ones/zero lane masks. `exec` holds the active
//! lanes. Branches on uniform conditions ([`analysis`]) are plain branches;
//! divergent `if`s run both arms under masks, skipping an arm no lane takes; loops
//! keep break/continue masks and leave when no lane is left. Only defs the analysis
//! marks as masked, phi writes that could overwrite other lanes' values, and output
//! and local-array stores merge with the mask; every other value is computed for all
//! lanes. A flag tracks where `exec` still holds every lane that entered (minus
//! discarded ones, whose values no longer matter), so those writes need no merge.
//!
//! Semantics follow the lane interpreter ([`crate::lanes`]): `undef` is 0; reads of
//! uniforms, uniform blocks, inputs and local arrays outside their range give 0 and
//! such writes are dropped; derivatives are fine 2×2-quad differences in fragment
//! shaders and 0 elsewhere; ALU results are bit-identical (ops the interpreter
//! computes in f64 are computed in f64 here; ops without a vector lowering call the
//! interpreter's own lane kernels).

mod alu;
pub(crate) mod analysis;
mod call;
pub(crate) mod compute;
mod intr;
mod liveness;

use std::any::Any;
use std::collections::{BTreeMap, HashMap};

use cranelift_codegen::ir::{
    condcodes::IntCC, types, Block as ClBlock, Endianness, InstBuilder, MemFlagsData, Opcode,
    Value, ValueDef,
};
use cranelift_frontend::{FunctionBuilder, Variable};
use rgl_nir::arena::EntityRef;
use rgl_nir::ir::*;

use self::analysis::{Analysis, PhiEdge};
use crate::driver::ShaderStage;
use crate::exec::ShaderInfo;
use crate::{Error, Result};

/// Most quads one body may process at once.
pub const MAX_QUADS: usize = 4;

/// One scalar SSA component for the lanes of a body: an `i32x4` per quad (slots past
/// the body's quad count repeat slot 0 and are never read).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Lanes(pub [Value; MAX_QUADS]);

impl Lanes {
    /// Every slot `v`.
    pub fn splat(v: Value) -> Lanes {
        Lanes([v; MAX_QUADS])
    }
}

/// System values an [`Env`] provides, as the words of [`crate::exec::SysVals`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SystemValue {
    /// `gl_FragCoord` component 0–3.
    FragCoord(u8),
    /// `gl_FrontFacing` (any non-zero word is front).
    FrontFace,
    /// `gl_PointCoord` component 0–1.
    PointCoord(u8),
    /// `gl_VertexID`.
    VertexId,
    /// `gl_InstanceID`.
    InstanceId,
    /// `gl_PrimitiveID`.
    PrimitiveId,
}

/// Everything the body reads or does outside its own values. Each call emits code
/// at the builder's current position and returns values usable there. The pointer
/// calls ([`Env::uniforms`], [`Env::ubos`], [`Env::resources`], [`Env::scratch`],
/// [`Env::zeros`]) are made once, at the start of the body.
pub trait Env {
    /// Input word `word` (input index × 4 + component, in the order of
    /// [`ShaderInfo::inputs`]) of the body's lanes.
    fn load_input(&mut self, b: &mut FunctionBuilder<'_>, word: u32) -> Lanes;
    /// A system value of the body's lanes.
    fn system_value(&mut self, b: &mut FunctionBuilder<'_>, sv: SystemValue) -> Lanes;
    /// The live lanes (covered fragments, valid vertices) as masks.
    fn live_mask(&mut self, b: &mut FunctionBuilder<'_>) -> Lanes;
    /// The default uniform block: a pointer to its vec4 slots of words and the
    /// number of slots (i64). Slots below [`BodyPlan::min_uniform_slots`] must exist.
    fn uniforms(&mut self, b: &mut FunctionBuilder<'_>) -> (Value, Value);
    /// The uniform blocks: a pointer to a table of [`UboRange`]s and its length (i64).
    fn ubos(&mut self, b: &mut FunctionBuilder<'_>) -> (Value, Value);
    /// A pointer to the draw's [`crate::exec::Resources`] (texture helpers read it).
    fn resources(&mut self, b: &mut FunctionBuilder<'_>) -> Value;
    /// A pointer to [`BodyPlan::scratch_bytes`] bytes, 64-byte aligned, private to
    /// this body while it runs (local arrays and helper operands).
    fn scratch(&mut self, b: &mut FunctionBuilder<'_>) -> Value;
    /// A pointer to 16 zero bytes (the target of loads outside a range).
    fn zeros(&mut self, b: &mut FunctionBuilder<'_>) -> Value;
    /// Charges `lane_instructions` against the draw's budget, leaving the function
    /// with the budget error when it runs out; the builder continues after the check.
    fn charge(&mut self, b: &mut FunctionBuilder<'_>, lane_instructions: u64);
    /// A compute body's context (a `*mut` [`crate::jit::compute::CsCtx`]): with
    /// one the body compiles the compute intrinsics and suspends at workgroup
    /// barriers ([`compute`](self::compute)). Draw stages have none (the default).
    fn compute_ctx(&mut self, b: &mut FunctionBuilder<'_>) -> Option<Value> {
        let _ = b;
        None
    }
}

/// One uniform block as the generated code reads it (a `#[repr(C)]` table entry).
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct UboRange {
    /// First byte.
    pub ptr: *const u8,
    /// Length in bytes.
    pub len: u64,
}

/// What an emitted body leaves behind.
pub struct BodyOutput {
    /// Output words in the order of [`ShaderInfo::outputs`] (× 4 + component): 0 where
    /// never written; 1-bit values as 0/1 like the interpreter.
    pub outputs: Vec<Lanes>,
    /// Lanes discarded by the shader (masks; helper lanes may be set too).
    pub kill: Lanes,
    /// Helper descriptors the generated code points at: keep them alive as long as
    /// the code.
    pub keep_alive: Vec<Box<dyn Any + Send + Sync>>,
    /// Bytes of the spill area a compute body saves its values to at a
    /// barrier (0 without barriers).
    pub spill_bytes: usize,
}

/// A local array in scratch memory: element `e`, lane `l` is the word at
/// `offset + (e × lanes + l) × 4`.
#[derive(Clone, Debug)]
pub(crate) struct LocalSlot {
    pub offset: u32,
    pub size: u32,
    pub init: Vec<u32>,
}

/// Registers (of [`crate::exec::Reg`] size) reserved for helper operands.
pub(crate) const HELPER_REGS: u32 = 96;

/// The NIR-side preparation of a body: analysis, IO maps and the scratch layout.
pub struct BodyPlan<'s> {
    pub(crate) shader: &'s Shader,
    pub(crate) func: &'s FunctionImpl,
    pub(crate) info: &'s ShaderInfo,
    pub(crate) quads: usize,
    pub(crate) an: Analysis,
    /// Input location → input index.
    pub(crate) inputs: BTreeMap<i32, usize>,
    /// Output location → output index.
    pub(crate) outputs: BTreeMap<i32, usize>,
    pub(crate) locals: BTreeMap<VarId, LocalSlot>,
    /// 16 bytes where dropped per-lane stores go.
    pub(crate) dummy: u32,
    /// First helper register (64-byte aligned offset).
    pub(crate) helper_base: u32,
    scratch_bytes: u32,
    min_uniforms: u32,
}

fn unsupported<T>(msg: impl Into<String>) -> Result<T> {
    Err(Error::Unsupported(msg.into()))
}

/// Scalars of a type, flattened (vectors by component, matrices by column, arrays by
/// element, structs by field) — the interpreter's local-array layout.
pub(crate) fn flat_size(ty: &Type, structs: &[StructDef], depth: u32) -> Option<u64> {
    if depth > 64 {
        return None;
    }
    Some(match ty {
        Type::Scalar(_) | Type::Sampler { .. } | Type::Image { .. } => 1,
        Type::Vector(_, n) => u64::from(*n),
        Type::Matrix { columns, rows } => u64::from(*columns) * u64::from(*rows),
        Type::Array(e, n) => flat_size(e, structs, depth + 1)?.checked_mul(u64::from(*n))?,
        Type::Struct(id) => {
            let def = structs.get(id.index())?;
            let mut s = 0u64;
            for (_, t) in &def.fields {
                s = s.checked_add(flat_size(t, structs, depth + 1)?)?;
            }
            s
        }
    })
}

/// Most scratch bytes one body may use (local arrays included).
const MAX_SCRATCH: u64 = 16 << 20;

impl<'s> BodyPlan<'s> {
    /// Prepares the entry function of `shader` (interface `info`, as the lane
    /// compiler computed it) for bodies of `quads` quads.
    pub fn new(shader: &'s Shader, info: &'s ShaderInfo, quads: usize) -> Result<BodyPlan<'s>> {
        if !(1..=MAX_QUADS).contains(&quads) {
            return Err(Error::InvalidArgument(format!("{quads} quads per body")));
        }
        let func = shader
            .functions
            .iter()
            .find(|(_, f)| f.is_entrypoint)
            .or_else(|| shader.functions.iter().find(|(_, f)| f.name == "main"))
            .and_then(|(_, f)| f.body.as_ref())
            .ok_or_else(|| Error::InvalidArgument("shader has no entry point".into()))?;
        let an = Analysis::new(func);
        let lane_bytes = 4 * 4 * quads as u64;
        let mut locals = BTreeMap::new();
        let mut offset = 0u64;
        let mut min_uniforms = 0u32;
        for b in func.blocks_in_order() {
            for i in func.block_instrs(b) {
                match &func.instrs[i].kind {
                    InstrKind::Deref(Deref {
                        kind: DerefKind::Var(v),
                        ..
                    }) => {
                        if locals.contains_key(v) {
                            continue;
                        }
                        let Some(var) = shader.variables.get(*v) else {
                            return unsupported("malformed NIR: unknown variable");
                        };
                        if !matches!(var.mode, VarMode::FunctionTemp | VarMode::ShaderTemp) {
                            return unsupported(format!(
                                "deref of a {} variable `{}` (IO, uniforms and samplers must be lowered)",
                                var.mode.deref_name(),
                                var.name
                            ));
                        }
                        let size = flat_size(&var.ty, &shader.structs, 0)
                            .filter(|s| *s <= u64::from(u32::MAX))
                            .ok_or_else(|| {
                                Error::TooLarge(format!("local variable `{}`", var.name))
                            })?;
                        let mut init = vec![0u32; size as usize];
                        if let Some(words) = &var.init {
                            for (w, x) in init.iter_mut().zip(words) {
                                *w = *x as u32;
                            }
                        }
                        locals.insert(
                            *v,
                            LocalSlot {
                                offset: offset as u32,
                                size: size as u32,
                                init,
                            },
                        );
                        offset += size * lane_bytes;
                        if offset > MAX_SCRATCH {
                            return Err(Error::TooLarge(format!(
                                "local arrays of more than {MAX_SCRATCH} bytes"
                            )));
                        }
                    }
                    InstrKind::Intrinsic(intr)
                        if intr.op == rgl_nir::intrinsics::IntrinsicOp::load_uniform =>
                    {
                        let base = intr::index(intr, rgl_nir::intrinsics::IndexKind::Base);
                        if let Some(k) = intr.srcs.first().and_then(|d| func.const_value(*d)) {
                            let slot =
                                i64::from(base) + k.first().map_or(0, |w| *w as u32 as i32) as i64;
                            if (0..1 << 20).contains(&slot) {
                                min_uniforms = min_uniforms.max(slot as u32 + 1);
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        let dummy = offset as u32;
        let helper_base = (offset + 16).div_ceil(64) * 64;
        let scratch_bytes = helper_base + u64::from(HELPER_REGS) * 64;
        let index = |decls: &[crate::exec::IoDecl]| {
            decls
                .iter()
                .enumerate()
                .map(|(i, d)| (d.location, i))
                .collect::<BTreeMap<_, _>>()
        };
        Ok(BodyPlan {
            shader,
            func,
            info,
            quads,
            an,
            inputs: index(&info.inputs),
            outputs: index(&info.outputs),
            locals,
            dummy,
            helper_base: helper_base as u32,
            scratch_bytes: scratch_bytes as u32,
            min_uniforms,
        })
    }

    /// Scratch bytes [`Env::scratch`] must provide.
    pub fn scratch_bytes(&self) -> usize {
        self.scratch_bytes as usize
    }

    /// Uniform slots the body reads at constant addresses without a bounds check.
    pub fn min_uniform_slots(&self) -> usize {
        self.min_uniforms as usize
    }

    /// Quads per body.
    pub fn quads(&self) -> usize {
        self.quads
    }

    /// Emits the body at the builder's current block, with `entry_exec` the lanes
    /// that start active (every lane for fragment shaders, whose helper lanes
    /// compute; the live lanes otherwise). The builder ends in a fresh block after
    /// the body. Fails with [`Error::Unsupported`] naming a construct the emitter
    /// does not compile.
    pub fn emit(
        &self,
        b: &mut FunctionBuilder<'_>,
        env: &mut dyn Env,
        entry_exec: Lanes,
    ) -> Result<BodyOutput> {
        let mut e = Emitter::new(self, b, env);
        e.run(entry_exec)
    }
}

/// An open loop.
struct LoopCx {
    latch: ClBlock,
    exit_pre: ClBlock,
    brk: [Variable; MAX_QUADS],
    cont: [Variable; MAX_QUADS],
}

/// A local-array place (deref value).
#[derive(Clone, Debug)]
pub(crate) struct Place {
    pub slot: LocalSlot,
    /// The deref def holding a per-lane element offset (`u32::MAX` when out of range).
    pub off: Option<Def>,
    pub konst: u32,
    pub ty: Type,
    pub oob: bool,
}

/// Pointers obtained from the environment at the start of the body.
#[derive(Copy, Clone)]
pub(crate) struct Ptrs {
    pub uniforms: Value,
    pub uniform_count: Value,
    pub ubos: Value,
    pub ubo_count: Value,
    pub resources: Value,
    pub scratch: Value,
    pub zeros: Value,
    /// The compute context ([`Env::compute_ctx`]).
    pub compute: Option<Value>,
}

pub(crate) struct Emitter<'p, 'a, 'f> {
    pub p: &'p BodyPlan<'p>,
    pub b: &'a mut FunctionBuilder<'f>,
    pub env: &'a mut dyn Env,
    pub q: usize,
    vars: Vec<Option<u32>>,
    pool: Vec<Variable>,
    exec: [Variable; MAX_QUADS],
    kill: [Variable; MAX_QUADS],
    outs: Vec<[Variable; MAX_QUADS]>,
    pub full: bool,
    loops: Vec<LoopCx>,
    end: ClBlock,
    pub keep: Vec<Box<dyn Any + Send + Sync>>,
    pub places: HashMap<Def, Place>,
    consts: HashMap<(ClBlock, u32), Value>,
    pub ptrs: Option<Ptrs>,
    sigs: HashMap<(usize, bool), cranelift_codegen::ir::SigRef>,
    /// Barrier resume points of a compute body.
    resume: Option<compute::Resume>,
    /// Divergent `if`s enclosing the code being emitted.
    divergent_depth: u32,
    /// The instruction being emitted.
    cur_instr: Option<Instr>,
}

/// `v` as `ty` (a 128-bit vector type): `v` itself when it has that type, the
/// operand of the bitcast that made `v` when that operand does (so a float
/// result read back as floats costs no value), a new bitcast otherwise. The
/// operand of a bitcast dominates it, so the shortcut is valid wherever `v` is.
pub(crate) fn view(b: &mut FunctionBuilder<'_>, v: Value, ty: types::Type) -> Value {
    let dfg = &b.func.dfg;
    if dfg.value_type(v) == ty {
        return v;
    }
    if let ValueDef::Result(inst, _) = dfg.value_def(v) {
        if dfg.insts[inst].opcode() == Opcode::Bitcast {
            let src = dfg.inst_args(inst)[0];
            if dfg.value_type(src) == ty {
                return src;
            }
        }
    }
    let flags = MemFlagsData::new().with_endianness(Endianness::Little);
    b.ins().bitcast(ty, flags, v)
}

/// Memory flags of the emitter's own aligned, in-bounds accesses.
pub(crate) fn trusted() -> MemFlagsData {
    MemFlagsData::trusted()
}

impl<'p, 'a, 'f> Emitter<'p, 'a, 'f> {
    fn new(p: &'p BodyPlan<'p>, b: &'a mut FunctionBuilder<'f>, env: &'a mut dyn Env) -> Self {
        let mask =
            |b: &mut FunctionBuilder<'_>| [(); MAX_QUADS].map(|_| b.declare_var(types::I32X4));
        let exec = mask(b);
        let kill = mask(b);
        let end = b.create_block();
        Emitter {
            p,
            q: p.quads,
            exec,
            kill,
            outs: Vec::new(),
            b,
            env,
            vars: vec![None; p.func.defs.len()],
            pool: Vec::new(),
            full: true,
            loops: Vec::new(),
            end,
            keep: Vec::new(),
            places: HashMap::new(),
            consts: HashMap::new(),
            ptrs: None,
            sigs: HashMap::new(),
            resume: None,
            divergent_depth: 0,
            cur_instr: None,
        }
    }

    fn run(&mut self, entry_exec: Lanes) -> Result<BodyOutput> {
        let ptrs = {
            let (uniforms, uniform_count) = self.env.uniforms(self.b);
            let (ubos, ubo_count) = self.env.ubos(self.b);
            Ptrs {
                uniforms,
                uniform_count,
                ubos,
                ubo_count,
                resources: self.env.resources(self.b),
                scratch: self.env.scratch(self.b),
                zeros: self.env.zeros(self.b),
                compute: self.env.compute_ctx(self.b),
            }
        };
        self.ptrs = Some(ptrs);
        if let Some(ctx) = ptrs.compute {
            self.begin_resume(ctx);
        }
        let zero = self.vzero();
        for q in 0..MAX_QUADS {
            self.b.def_var(self.exec[q], entry_exec.0[q]);
            self.b.def_var(self.kill[q], zero);
        }
        let nwords = self.p.info.outputs.len() * 4;
        for _ in 0..nwords {
            let v = [(); MAX_QUADS].map(|_| self.b.declare_var(types::I32X4));
            for var in v {
                self.b.def_var(var, zero);
            }
            self.outs.push(v);
        }
        self.init_locals()?;
        self.list(self.p.func.body)?;
        let end = self.end;
        self.b.ins().jump(end, &[]);
        self.finish_resume(end);
        self.b.switch_to_block(end);
        self.b.seal_block(end);
        let mut outputs = Vec::with_capacity(nwords);
        for w in 0..nwords {
            let v = self.outs[w];
            outputs.push(self.use_lanes(&v));
        }
        let kill = self.use_lanes(&self.kill.clone());
        Ok(BodyOutput {
            outputs,
            kill,
            keep_alive: std::mem::take(&mut self.keep),
            spill_bytes: self.resume.as_ref().map_or(0, |r| r.slots as usize * 16),
        })
    }

    // ------------------------------------------------------------------ small ops

    pub fn ptrs(&self) -> Ptrs {
        // `run` sets the pointers before emitting anything.
        self.ptrs.expect("body pointers are set before emission")
    }

    /// A constant vector with every lane `w`.
    pub fn splat(&mut self, w: u32) -> Value {
        let blk = self.b.current_block();
        if let Some(blk) = blk {
            if let Some(v) = self.consts.get(&(blk, w)) {
                return *v;
            }
        }
        let c = self.b.ins().iconst(types::I32, i64::from(w as i32));
        let v = self.b.ins().splat(types::I32X4, c);
        if let Some(blk) = blk {
            self.consts.insert((blk, w), v);
        }
        v
    }

    pub fn vzero(&mut self) -> Value {
        self.splat(0)
    }

    pub fn lanes_splat(&mut self, w: u32) -> Lanes {
        Lanes::splat(self.splat(w))
    }

    fn view(&mut self, v: Value, ty: types::Type) -> Value {
        view(self.b, v, ty)
    }

    /// The float view of a lane vector.
    pub fn as_f(&mut self, v: Value) -> Value {
        self.view(v, types::F32X4)
    }

    /// The integer (`i32x4`) view of a lane vector.
    pub fn as_i(&mut self, v: Value) -> Value {
        self.view(v, types::I32X4)
    }

    /// `i32x4` as bytes (for shuffles).
    pub fn as_bytes(&mut self, v: Value) -> Value {
        self.view(v, types::I8X16)
    }

    /// Lanes of `a` (indices 0–3) and `b` (4–7) picked by `idx`.
    pub fn shuffle(&mut self, a: Value, b: Value, idx: [u8; 4]) -> Value {
        let mut bytes = [0u8; 16];
        for (k, &i) in idx.iter().enumerate() {
            for j in 0..4 {
                bytes[k * 4 + j] = i * 4 + j as u8;
            }
        }
        let ab = self.as_bytes(a);
        let bb = self.as_bytes(b);
        let imm = self.b.func.dfg.immediates.push(bytes.to_vec().into());
        let r = self.b.ins().shuffle(ab, bb, imm);
        self.as_i(r)
    }

    /// Whether any lane of the masks is set (an `i8` 0/1).
    pub fn any(&mut self, m: Lanes) -> Value {
        let mut acc = m.0[0];
        for q in 1..self.q {
            acc = self.b.ins().bor(acc, m.0[q]);
        }
        self.b.ins().vany_true(acc)
    }

    pub fn map1(&mut self, a: Lanes, mut f: impl FnMut(&mut Self, Value) -> Value) -> Lanes {
        let mut out = a;
        for q in 0..self.q {
            out.0[q] = f(self, a.0[q]);
        }
        out.fill_rest(self.q)
    }

    pub fn map2(
        &mut self,
        a: Lanes,
        b: Lanes,
        mut f: impl FnMut(&mut Self, Value, Value) -> Value,
    ) -> Lanes {
        let mut out = a;
        for q in 0..self.q {
            out.0[q] = f(self, a.0[q], b.0[q]);
        }
        out.fill_rest(self.q)
    }

    pub fn map3(
        &mut self,
        a: Lanes,
        b: Lanes,
        c: Lanes,
        mut f: impl FnMut(&mut Self, Value, Value, Value) -> Value,
    ) -> Lanes {
        let mut out = a;
        for q in 0..self.q {
            out.0[q] = f(self, a.0[q], b.0[q], c.0[q]);
        }
        out.fill_rest(self.q)
    }

    fn use_lanes(&mut self, v: &[Variable; MAX_QUADS]) -> Lanes {
        let first = self.b.use_var(v[0]);
        let mut out = Lanes::splat(first);
        for q in 1..self.q {
            out.0[q] = self.b.use_var(v[q]);
        }
        out
    }

    fn def_lanes(&mut self, v: &[Variable; MAX_QUADS], x: Lanes) {
        for q in 0..self.q {
            self.b.def_var(v[q], x.0[q]);
        }
    }

    pub fn exec(&mut self) -> Lanes {
        let e = self.exec;
        self.use_lanes(&e)
    }

    fn set_exec(&mut self, m: Lanes) {
        let e = self.exec;
        self.def_lanes(&e, m);
    }

    pub fn band(&mut self, a: Lanes, b: Lanes) -> Lanes {
        self.map2(a, b, |e, x, y| e.b.ins().band(x, y))
    }

    pub fn bor(&mut self, a: Lanes, b: Lanes) -> Lanes {
        self.map2(a, b, |e, x, y| e.b.ins().bor(x, y))
    }

    /// `a & !b`.
    pub fn band_not(&mut self, a: Lanes, b: Lanes) -> Lanes {
        self.map2(a, b, |e, x, y| {
            let ny = e.b.ins().bnot(y);
            e.b.ins().band(x, ny)
        })
    }

    /// `m ? a : b` per lane.
    pub fn select(&mut self, m: Lanes, a: Lanes, b: Lanes) -> Lanes {
        self.map3(m, a, b, |e, m, x, y| e.b.ins().bitselect(m, x, y))
    }

    /// Merges `v` into `old` for the active lanes (no merge where every lane is).
    pub fn merge_exec(&mut self, v: Lanes, old: Lanes, masked: bool) -> Lanes {
        if masked && !self.full {
            let e = self.exec();
            self.select(e, v, old)
        } else {
            v
        }
    }

    // ------------------------------------------------------------------ values

    pub fn shape(&self, d: Def) -> (u8, u8) {
        let dd = &self.p.func.defs[d];
        (dd.num_components, dd.bit_size)
    }

    fn check_def(&self, d: Def, c: u8) -> Result<()> {
        let Some(dd) = self.p.func.defs.get(d) else {
            return unsupported(format!("malformed NIR: unknown def {d}"));
        };
        if c >= dd.num_components {
            return unsupported(format!(
                "malformed NIR: component {c} of {}-component {d}",
                dd.num_components
            ));
        }
        if dd.bit_size != 1 && dd.bit_size != 32 {
            return unsupported(format!("{}-bit values", dd.bit_size));
        }
        Ok(())
    }

    fn var(&mut self, d: Def, c: u8) -> [Variable; MAX_QUADS] {
        let i = d.index();
        let base = match self.vars[i] {
            Some(base) => base,
            None => {
                let n = self.p.func.defs[d].num_components as usize;
                let base = self.pool.len() as u32;
                for _ in 0..n * MAX_QUADS {
                    let v = self.b.declare_var(types::I32X4);
                    self.pool.push(v);
                }
                self.vars[i] = Some(base);
                base
            }
        };
        let at = base as usize + c as usize * MAX_QUADS;
        let mut out = [self.pool[at]; MAX_QUADS];
        out.copy_from_slice(&self.pool[at..at + MAX_QUADS]);
        out
    }

    /// Component `c` of `d` (constants are materialised where they are read).
    pub fn val(&mut self, d: Def, c: u8) -> Result<Lanes> {
        self.check_def(d, c)?;
        let (_, bits) = self.shape(d);
        let instr = self.p.func.defs[d].instr;
        match &self.p.func.instrs[instr].kind {
            InstrKind::LoadConst(v) => {
                let w = v.get(c as usize).copied().unwrap_or(0) as u32;
                let w = if bits == 1 {
                    if w & 1 != 0 {
                        u32::MAX
                    } else {
                        0
                    }
                } else {
                    w
                };
                Ok(self.lanes_splat(w))
            }
            InstrKind::Undef => Ok(self.lanes_splat(0)),
            _ => {
                let v = self.var(d, c);
                Ok(self.use_lanes(&v))
            }
        }
    }

    /// Writes component `c` of `d` (merged with `exec` when the def is masked).
    pub fn set(&mut self, d: Def, c: u8, v: Lanes) -> Result<()> {
        self.check_def(d, c)?;
        let var = self.var(d, c);
        let masked = self.p.an.is_masked(d) && !self.full;
        let v = if masked {
            let old = self.use_lanes(&var);
            self.merge_exec(v, old, true)
        } else {
            v
        };
        self.def_lanes(&var, v);
        Ok(())
    }

    /// A 1-bit or 32-bit value as lane masks (non-zero words are true).
    pub fn mask_of(&mut self, d: Def, c: u8) -> Result<Lanes> {
        let v = self.val(d, c)?;
        if self.shape(d).1 == 1 {
            return Ok(v);
        }
        Ok(self.nonzero(v))
    }

    /// Non-zero words as masks.
    pub fn nonzero(&mut self, v: Lanes) -> Lanes {
        let z = self.vzero();
        self.map1(v, |e, x| e.b.ins().icmp(IntCC::NotEqual, x, z))
    }

    // ------------------------------------------------------------------ outputs

    pub fn output(&mut self, word: usize) -> Option<Lanes> {
        let v = *self.outs.get(word)?;
        Some(self.use_lanes(&v))
    }

    /// Masked write of output word `word`.
    pub fn store_output(&mut self, word: usize, v: Lanes, extra_mask: Option<Lanes>) {
        let Some(var) = self.outs.get(word).copied() else {
            return;
        };
        let old = self.use_lanes(&var);
        let mut m = if self.full { None } else { Some(self.exec()) };
        if let Some(x) = extra_mask {
            m = Some(match m {
                Some(e) => self.band(e, x),
                None => x,
            });
        }
        let v = match m {
            Some(m) => self.select(m, v, old),
            None => v,
        };
        self.def_lanes(&var, v);
    }

    // ------------------------------------------------------------------ control flow

    fn list(&mut self, list: CfList) -> Result<()> {
        let f = self.p.func;
        for node in f.list_nodes(list) {
            match f.cf[node].kind.clone() {
                CfKind::Block(blk) => self.block(blk)?,
                CfKind::If {
                    cond,
                    then_list,
                    else_list,
                } => {
                    if self.p.an.is_divergent(cond) {
                        self.divergent_if(node, cond, then_list, else_list)?;
                    } else {
                        self.uniform_if(node, cond, then_list, else_list)?;
                    }
                    if self.p.an.shrinks[node.index()] {
                        self.skip_if_idle();
                    }
                }
                CfKind::Loop { body } => self.emit_loop(node, body)?,
            }
        }
        Ok(())
    }

    /// Jumps to the end of the iteration (or of the body) when no lane is active.
    pub fn skip_if_idle(&mut self) {
        let target = self.loops.last().map_or(self.end, |l| l.latch);
        let e = self.exec();
        let any = self.any(e);
        let next = self.b.create_block();
        self.b.ins().brif(any, next, &[], target, &[]);
        self.b.switch_to_block(next);
        self.b.seal_block(next);
    }

    fn uniform_if(
        &mut self,
        node: CfNode,
        cond: Def,
        then_l: CfList,
        else_l: CfList,
    ) -> Result<()> {
        let c = self.mask_of(cond, 0)?;
        let t = self.b.ins().vany_true(c.0[0]);
        let (then_b, else_b, merge) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().brif(t, then_b, &[], else_b, &[]);
        let full = self.full;
        self.b.switch_to_block(then_b);
        self.b.seal_block(then_b);
        self.list(then_l)?;
        self.b.ins().jump(merge, &[]);
        self.full = full;
        self.b.switch_to_block(else_b);
        self.b.seal_block(else_b);
        self.list(else_l)?;
        self.b.ins().jump(merge, &[]);
        self.b.switch_to_block(merge);
        self.b.seal_block(merge);
        self.full = full && !self.p.an.has_exit[node.index()];
        Ok(())
    }

    fn divergent_if(
        &mut self,
        node: CfNode,
        cond: Def,
        then_l: CfList,
        else_l: CfList,
    ) -> Result<()> {
        let c = self.mask_of(cond, 0)?;
        let e0 = self.exec();
        let then_m = self.band(e0, c);
        let else_m = self.band_not(e0, c);
        let then_out = [(); MAX_QUADS].map(|_| self.b.declare_var(types::I32X4));
        let zero = self.lanes_splat(0);
        self.def_lanes(&then_out, zero);
        self.set_exec(then_m);
        let any_t = self.any(then_m);
        let (then_b, else_pre, else_b, merge) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().brif(any_t, then_b, &[], else_pre, &[]);
        let full = self.full;
        self.full = false;
        self.b.switch_to_block(then_b);
        self.b.seal_block(then_b);
        self.divergent_depth += 1;
        let r = self.list(then_l);
        self.divergent_depth -= 1;
        r?;
        let e = self.exec();
        self.def_lanes(&then_out, e);
        self.b.ins().jump(else_pre, &[]);
        self.b.switch_to_block(else_pre);
        self.b.seal_block(else_pre);
        self.set_exec(else_m);
        let any_e = self.any(else_m);
        self.b.ins().brif(any_e, else_b, &[], merge, &[]);
        self.b.switch_to_block(else_b);
        self.b.seal_block(else_b);
        self.divergent_depth += 1;
        let r = self.list(else_l);
        self.divergent_depth -= 1;
        r?;
        self.b.ins().jump(merge, &[]);
        self.b.switch_to_block(merge);
        self.b.seal_block(merge);
        let t = self.use_lanes(&then_out);
        let e = self.exec();
        let m = self.bor(t, e);
        self.set_exec(m);
        self.full = full && !self.p.an.has_exit[node.index()];
        Ok(())
    }

    fn emit_loop(&mut self, node: CfNode, body: CfList) -> Result<()> {
        let info = self.p.an.loop_info(node);
        let zero = self.lanes_splat(0);
        let brk = [(); MAX_QUADS].map(|_| self.b.declare_var(types::I32X4));
        let cont = [(); MAX_QUADS].map(|_| self.b.declare_var(types::I32X4));
        self.def_lanes(&brk, zero);
        self.def_lanes(&cont, zero);
        let (header, latch, exit_pre, exit) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        if self.full {
            self.b.ins().jump(header, &[]);
        } else {
            let e = self.exec();
            let any = self.any(e);
            self.b.ins().brif(any, header, &[], exit_pre, &[]);
        }
        let full = self.full;
        self.full = full && !info.divergent() && !info.contains_return;
        self.loops.push(LoopCx {
            latch,
            exit_pre,
            brk,
            cont,
        });
        self.b.switch_to_block(header);
        let r = self.list(body);
        let cx = self.loops.pop();
        r?;
        self.b.ins().jump(latch, &[]);
        self.b.switch_to_block(latch);
        self.b.seal_block(latch);
        let e = self.exec();
        let c = self.use_lanes(&cont);
        let e = self.bor(e, c);
        self.set_exec(e);
        // A fresh constant: a value from before the loop need not dominate
        // the latch once a barrier's resume block enters the body.
        let zero = self.lanes_splat(0);
        self.def_lanes(&cont, zero);
        self.env
            .charge(self.b, info.cost.saturating_mul(4 * self.q as u64));
        let any = self.any(e);
        self.b.ins().brif(any, header, &[], exit_pre, &[]);
        self.b.seal_block(header);
        self.b.switch_to_block(exit_pre);
        self.b.seal_block(exit_pre);
        let brk_v = match cx {
            Some(cx) => self.use_lanes(&cx.brk),
            None => zero,
        };
        self.set_exec(brk_v);
        self.b.ins().jump(exit, &[]);
        self.b.switch_to_block(exit);
        self.b.seal_block(exit);
        self.full = full && !info.contains_return;
        Ok(())
    }

    fn block(&mut self, blk: Block) -> Result<()> {
        let f = self.p.func;
        let mut jump = None;
        for i in f.block_instrs(blk) {
            match &f.instrs[i].kind {
                InstrKind::Phi(_) => {}
                InstrKind::Jump(k) => jump = Some(*k),
                _ => self.instr(i)?,
            }
        }
        self.phi_writes(blk)?;
        let zero = self.lanes_splat(0);
        match jump {
            None => {}
            Some(k @ (JumpKind::Break | JumpKind::Continue)) => {
                let Some(lp) = self.loops.last() else {
                    return unsupported(format!("{} outside a loop", k.name()));
                };
                let (vars, target) = if k == JumpKind::Break {
                    (lp.brk, lp.exit_pre)
                } else {
                    (lp.cont, lp.latch)
                };
                let e = self.exec();
                let old = self.use_lanes(&vars);
                let m = self.bor(old, e);
                self.def_lanes(&vars, m);
                self.set_exec(zero);
                if !self.p.an.jump_divergent[blk.index()] {
                    self.b.ins().jump(target, &[]);
                    let dead = self.b.create_block();
                    self.b.switch_to_block(dead);
                    self.b.seal_block(dead);
                }
            }
            Some(JumpKind::Return | JumpKind::Halt) => self.set_exec(zero),
        }
        Ok(())
    }

    /// Writes the phis of `blk`'s successors for the lanes leaving `blk` (all sources
    /// read before any phi is written, so swaps stay parallel).
    fn phi_writes(&mut self, blk: Block) -> Result<()> {
        let f = self.p.func;
        for s in f.compute_succs(blk) {
            let mut writes = Vec::new();
            for i in f.block_instrs(s) {
                let InstrKind::Phi(srcs) = &f.instrs[i].kind else {
                    break;
                };
                let Some(d) = f.instrs[i].def else {
                    return unsupported("malformed NIR: phi without a def");
                };
                let Some(&(_, src)) = srcs.iter().find(|(p, _)| *p == blk) else {
                    continue;
                };
                let edge_masked = match Analysis::phi_edge(f, s, blk) {
                    PhiEdge::Preheader => false,
                    PhiEdge::BackEdge(l) => self.p.an.loop_info(l).divergent_continue,
                    PhiEdge::LoopExit(l) => self.p.an.loop_info(l).divergent_break,
                    PhiEdge::IfArm { node, from_else } => {
                        from_else
                            && match &f.cf[node].kind {
                                CfKind::If { cond, .. } => self.p.an.is_divergent(*cond),
                                _ => true,
                            }
                    }
                    PhiEdge::Other => true,
                };
                let masked = edge_masked || self.p.an.is_masked(d);
                let (n, _) = self.shape(d);
                let (sn, _) = self.shape(src);
                for c in 0..n {
                    let v = self.val(src, c.min(sn.saturating_sub(1)))?;
                    writes.push((d, c, v, masked));
                }
            }
            for (d, c, v, masked) in writes {
                self.check_def(d, c)?;
                let var = self.var(d, c);
                let v = if masked && !self.full {
                    let old = self.use_lanes(&var);
                    self.merge_exec(v, old, true)
                } else {
                    v
                };
                self.def_lanes(&var, v);
            }
        }
        Ok(())
    }

    fn instr(&mut self, i: Instr) -> Result<()> {
        let f = self.p.func;
        self.cur_instr = Some(i);
        let data = &f.instrs[i];
        let def = || {
            data.def.ok_or_else(|| {
                Error::Unsupported("malformed NIR: instruction without a def".into())
            })
        };
        match &data.kind {
            InstrKind::Alu(a) => self.alu(a, def()?),
            InstrKind::LoadConst(_) | InstrKind::Undef => {
                let d = def()?;
                let (n, _) = self.shape(d);
                for c in 0..n {
                    self.check_def(d, c)?;
                }
                Ok(())
            }
            InstrKind::Deref(deref) => self.deref(def()?, deref),
            InstrKind::Intrinsic(intr) => self.intrinsic(data.def, intr),
            InstrKind::Tex(t) => self.tex(def()?, t),
            InstrKind::Phi(_) => unsupported("malformed NIR: phi after other instructions"),
            InstrKind::Jump(_) => unsupported("malformed NIR: jump inside a block"),
            InstrKind::Call { .. } => unsupported("function calls (functions must be inlined)"),
            InstrKind::ParallelCopy(entries) => {
                let mut staged = Vec::new();
                for &(d, s) in entries {
                    for c in 0..self.shape(d).0 {
                        staged.push((d, c, self.val(s, c)?));
                    }
                }
                for (d, c, v) in staged {
                    self.set(d, c, v)?;
                }
                Ok(())
            }
        }
    }

    /// The stage being emitted.
    pub fn stage(&self) -> ShaderStage {
        self.p.info.stage
    }

    /// Records a kill of `lanes` (masks): they leave `exec` and join the kill mask.
    pub fn kill_lanes(&mut self, lanes: Lanes) {
        let k = self.kill;
        let old = self.use_lanes(&k);
        let nk = self.bor(old, lanes);
        self.def_lanes(&k, nk);
        let e = self.exec();
        let ne = self.band_not(e, lanes);
        self.set_exec(ne);
    }
}

trait FillRest {
    fn fill_rest(self, q: usize) -> Self;
}

impl FillRest for Lanes {
    fn fill_rest(mut self, q: usize) -> Lanes {
        for i in q..MAX_QUADS {
            self.0[i] = self.0[0];
        }
        self
    }
}
