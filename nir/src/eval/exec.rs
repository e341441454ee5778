//! The interpreter proper: walks the control-flow tree of a function, evaluates
//! instructions, follows jumps, evaluates phis by the predecessor block control came
//! from, and calls functions with deref parameters in fresh frames.

use std::collections::HashMap;

mod compute;
mod image;

use super::group::Group;
use super::memory::{self, Leaf, Ptr, Root};
use super::texture::{self, TexArgs, Texture};
use super::{EmittedVertex, EvalError, EvalErrorKind, EvalInput, EvalOutput, InputKey};
use crate::arena::EntityRef;
use crate::constant_fold::fold_alu;
use crate::intrinsics::{IndexKind, IntrinsicOp};
use crate::ir::names::{self, VARYING_SLOT_CLIP_DIST0, VARYING_SLOT_CULL_DIST0};
use crate::ir::*;
use crate::opcodes::{mask, sign_extend, Opcode};

/// Deepest nesting of control flow plus calls.
const MAX_DEPTH: u32 = 256;
/// Most vertices a geometry invocation may emit.
const MAX_EMITTED: usize = 4096;

/// A runtime value: data components (raw bits) with a mask of the components that
/// are undefined (from `undef`, uninitialised storage, ...), or a deref.
#[derive(Clone, Debug)]
enum Value {
    Data(Vec<u64>, u16),
    Ptr(Box<Ptr>),
}

fn bit(mask: u16, i: usize) -> bool {
    i < 16 && mask & (1 << i) != 0
}

fn mask_of(bits: impl IntoIterator<Item = bool>) -> u16 {
    bits.into_iter()
        .take(16)
        .enumerate()
        .fold(0, |m, (i, b)| if b { m | (1 << i) } else { m })
}

/// How a cf list was left.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Flow {
    Normal,
    Break,
    Continue,
    Return,
    /// `halt` or a kill: the invocation ends.
    Halt,
}

struct Frame<'a> {
    func: &'a FunctionImpl,
    id: u32,
    values: Vec<Option<Value>>,
    params: Vec<Value>,
    prev: Option<Block>,
}

/// One scalar storage location.
#[derive(Copy, Clone, Debug)]
struct Addr {
    root: Root,
    vertex: u32,
    slot: i64,
    comp: i64,
    byte: i64,
}

type Res<T> = Result<T, EvalError>;

pub(crate) struct Interp<'a> {
    shader: &'a Shader,
    input: &'a EvalInput,
    out: EvalOutput,
    /// Temporaries: (value, undefined).
    mem: HashMap<(Root, i64, i64), (u64, bool)>,
    next_frame: u32,
    depth: u32,
    default_texture: Texture,
    /// The workgroup this invocation belongs to (storage buffers, shared memory,
    /// barriers and subgroups), and the invocation's index in it.
    group: &'a Group,
    invocation: usize,
}

fn def_shape(func: &FunctionImpl, def: Def) -> Res<(u8, u8)> {
    func.defs
        .get(def)
        .map(|d| (d.num_components, d.bit_size))
        .ok_or_else(|| EvalError::malformed(format!("unknown def {def}")))
}

fn norm_bits(v: u64, bits: u8) -> u64 {
    if bits == 1 {
        u64::from(v != 0)
    } else {
        v & mask(bits)
    }
}

pub(crate) fn is_compact(var: &Variable) -> bool {
    matches!(var.mode, VarMode::ShaderIn | VarMode::ShaderOut)
        && (var.location == VARYING_SLOT_CLIP_DIST0 || var.location == VARYING_SLOT_CULL_DIST0)
        && matches!(&var.ty, Type::Array(e, _) if **e == Type::Scalar(BaseType::Float))
}

/// `SYSTEM_VALUE_*` number read by a system-value intrinsic.
fn sysval_of(op: IntrinsicOp) -> Option<i32> {
    let name = op.info().name.strip_prefix("load_")?;
    let want = format!("SYSTEM_VALUE_{}", name.to_ascii_uppercase());
    names::SYSTEM_VALUES
        .iter()
        .find(|(n, _)| *n == want)
        .map(|(_, v)| *v)
}

impl<'a> Interp<'a> {
    pub(crate) fn new(
        shader: &'a Shader,
        input: &'a EvalInput,
        group: &'a Group,
        invocation: usize,
    ) -> Interp<'a> {
        Interp {
            shader,
            input,
            out: EvalOutput::default(),
            mem: HashMap::new(),
            next_frame: 1,
            depth: 0,
            default_texture: Texture::default(),
            group,
            invocation,
        }
    }

    pub(crate) fn run(mut self) -> Res<EvalOutput> {
        let shader = self.shader;
        let entry = shader
            .functions
            .iter()
            .find(|(_, f)| f.is_entrypoint)
            .or_else(|| shader.functions.iter().find(|(_, f)| f.name == "main"))
            .map(|(id, _)| id)
            .ok_or_else(|| EvalError::malformed("no entry point"))?;
        for &g in &shader.globals {
            if let Some(var) = shader.variables.get(g) {
                if matches!(var.mode, VarMode::ShaderTemp | VarMode::FunctionTemp) {
                    self.init_var(Root::Global(g), var)?;
                }
            }
        }
        self.call(entry, Vec::new())?;
        Ok(self.out)
    }

    fn tick(&mut self) -> Res<()> {
        self.out.instructions += 1;
        if self.out.instructions > self.input.max_instructions {
            return Err(EvalError::new(
                EvalErrorKind::BudgetExceeded,
                format!("more than {} instructions", self.input.max_instructions),
            ));
        }
        Ok(())
    }

    fn enter(&mut self) -> Res<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(EvalError::new(
                EvalErrorKind::TooDeep,
                format!("control flow and calls nested deeper than {MAX_DEPTH}"),
            ));
        }
        Ok(())
    }

    fn init_var(&mut self, root: Root, var: &Variable) -> Res<()> {
        let Some(init) = &var.init else {
            return Ok(());
        };
        let leaves = memory::leaves(&var.ty, &self.shader.structs, false, (false, 4))
            .ok_or_else(|| EvalError::unsupported("variable initializer too large"))?;
        for (leaf, word) in leaves.iter().zip(init) {
            let (s, c) = memory::normalise(leaf.slot, leaf.comp);
            self.mem.insert((root, s, c), (*word, false));
        }
        Ok(())
    }

    /// Runs function `id` with `params` in a new frame; returns `Halt` when the
    /// invocation ended inside.
    fn call(&mut self, id: FuncId, params: Vec<Value>) -> Res<Flow> {
        let shader = self.shader;
        let func = shader
            .functions
            .get(id)
            .ok_or_else(|| EvalError::malformed(format!("unknown function {id}")))?;
        let body = func.body.as_ref().ok_or_else(|| {
            EvalError::unsupported(format!("call of `{}` which has no body", func.name))
        })?;
        self.enter()?;
        let frame_id = self.next_frame;
        self.next_frame += 1;
        for &l in &body.locals {
            if let Some(var) = shader.variables.get(l) {
                self.init_var(
                    Root::Local {
                        frame: frame_id,
                        var: l,
                    },
                    var,
                )?;
            }
        }
        let mut frame = Frame {
            func: body,
            id: frame_id,
            values: vec![None; body.defs.len()],
            params,
            prev: None,
        };
        let flow = self.exec_list(&mut frame, body.body)?;
        // Locals of the frame die with it.
        self.mem
            .retain(|(r, _, _), _| !matches!(r, Root::Local { frame, .. } if *frame == frame_id));
        self.depth -= 1;
        match flow {
            Flow::Normal | Flow::Return => Ok(Flow::Normal),
            Flow::Halt => Ok(Flow::Halt),
            Flow::Break | Flow::Continue => Err(EvalError::malformed(format!(
                "break/continue outside a loop in `{}`",
                func.name
            ))),
        }
    }

    fn exec_list(&mut self, f: &mut Frame<'a>, list: CfList) -> Res<Flow> {
        self.enter()?;
        let func = f.func;
        let mut cursor = list.first;
        while let Some(node) = cursor {
            cursor = func.cf_next(node);
            let flow = match &func.cf[node].kind {
                CfKind::Block(b) => self.exec_block(f, *b)?,
                CfKind::If {
                    cond,
                    then_list,
                    else_list,
                } => {
                    let c = self.cond(f, *cond)?;
                    self.exec_list(f, if c { *then_list } else { *else_list })?
                }
                CfKind::Loop { body } => loop {
                    self.tick()?;
                    match self.exec_list(f, *body)? {
                        Flow::Normal | Flow::Continue => continue,
                        Flow::Break => break Flow::Normal,
                        other => break other,
                    }
                },
            };
            if flow != Flow::Normal {
                self.depth -= 1;
                return Ok(flow);
            }
        }
        self.depth -= 1;
        Ok(Flow::Normal)
    }

    fn exec_block(&mut self, f: &mut Frame<'a>, b: Block) -> Res<Flow> {
        let func = f.func;
        // Phis first, all reading the values of the edge taken.
        let mut phis = Vec::new();
        let mut cursor = func.blocks.get(b).and_then(|d| d.first);
        while let Some(i) = cursor {
            let InstrKind::Phi(srcs) = &func.instrs[i].kind else {
                break;
            };
            cursor = func.instr_next(i);
            self.tick()?;
            let pred = f.prev.ok_or_else(|| {
                EvalError::malformed(format!("phi in {b} reached without a predecessor"))
            })?;
            let src = srcs
                .iter()
                .find(|(p, _)| *p == pred)
                .map(|(_, d)| *d)
                .ok_or_else(|| {
                    EvalError::malformed(format!("phi in {b} has no source for predecessor {pred}"))
                })?;
            let v = self.value(f, src)?.clone();
            if let Some(d) = func.instrs[i].def {
                phis.push((d, v));
            }
        }
        for (d, v) in phis {
            self.set(f, d, v)?;
        }
        f.prev = Some(b);
        while let Some(i) = cursor {
            cursor = func.instr_next(i);
            self.tick()?;
            if let Some(flow) = self.exec_instr(f, i)? {
                return Ok(flow);
            }
        }
        Ok(Flow::Normal)
    }

    // ------------------------------------------------------------------ values

    fn value<'f>(&self, f: &'f Frame, d: Def) -> Res<&'f Value> {
        f.values
            .get(d.index())
            .and_then(|v| v.as_ref())
            .ok_or_else(|| EvalError::malformed(format!("{d} used before it is defined")))
    }

    fn data<'f>(&self, f: &'f Frame, d: Def) -> Res<&'f [u64]> {
        match self.value(f, d)? {
            Value::Data(v, _) => Ok(v),
            Value::Ptr(_) => Err(EvalError::malformed(format!(
                "{d} is a deref where a value is expected"
            ))),
        }
    }

    fn ptr<'f>(&self, f: &'f Frame, d: Def) -> Res<&'f Ptr> {
        match self.value(f, d)? {
            Value::Ptr(p) => Ok(p),
            Value::Data(..) => Err(EvalError::malformed(format!(
                "{d} is a value where a deref is expected"
            ))),
        }
    }

    /// Undefined-component mask of a value.
    fn undef(&self, f: &Frame, d: Def) -> Res<u16> {
        match self.value(f, d)? {
            Value::Data(_, m) => Ok(*m),
            Value::Ptr(_) => Ok(0),
        }
    }

    /// A condition that decides control flow; an undefined one makes the run's
    /// behaviour undefined (counted, evaluated as its bits).
    fn cond(&mut self, f: &Frame, d: Def) -> Res<bool> {
        if self.undef(f, d)? & 1 != 0 {
            self.out.undefined_control += 1;
        }
        Ok(self.data(f, d)?.first().copied().unwrap_or(0) != 0)
    }

    fn set(&self, f: &mut Frame, d: Def, v: Value) -> Res<()> {
        let slot = f
            .values
            .get_mut(d.index())
            .ok_or_else(|| EvalError::malformed(format!("unknown def {d}")))?;
        *slot = Some(v);
        Ok(())
    }

    fn scalar(&mut self, f: &Frame, d: Def) -> Res<i64> {
        let (_, bits) = def_shape(f.func, d)?;
        if self.undef(f, d)? & 1 != 0 {
            self.out.undefined_control += 1;
        }
        let v = self.data(f, d)?.first().copied().unwrap_or(0);
        Ok(sign_extend(v, bits))
    }

    // ------------------------------------------------------------------ instructions

    fn exec_instr(&mut self, f: &mut Frame<'a>, instr: Instr) -> Res<Option<Flow>> {
        let func = f.func;
        let data = &func.instrs[instr];
        let result: Option<Value> = match &data.kind {
            InstrKind::Alu(alu) => {
                let (v, m) = self.alu(f, data.def, alu)?;
                Some(Value::Data(v, m))
            }
            InstrKind::Deref(d) => Some(Value::Ptr(Box::new(self.deref(f, d)?))),
            InstrKind::Intrinsic(intr) => match self.intrinsic(f, data.def, intr)? {
                Ok(v) => v,
                Err(flow) => return Ok(Some(flow)),
            },
            InstrKind::Tex(t) => {
                let (v, m) = self.tex(f, data.def, t)?;
                Some(Value::Data(v, m))
            }
            InstrKind::LoadConst(v) => Some(Value::Data(v.clone(), 0)),
            InstrKind::Undef => {
                let (n, _) = match data.def {
                    Some(d) => def_shape(func, d)?,
                    None => (0, 0),
                };
                Some(Value::Data(
                    vec![0; usize::from(n)],
                    mask_of((0..n).map(|_| true)),
                ))
            }
            InstrKind::Phi(_) => {
                return Err(EvalError::malformed(
                    "phi after a non-phi instruction".to_string(),
                ))
            }
            InstrKind::Jump(k) => {
                return Ok(Some(match k {
                    JumpKind::Break => Flow::Break,
                    JumpKind::Continue => Flow::Continue,
                    JumpKind::Return => Flow::Return,
                    JumpKind::Halt => Flow::Halt,
                }))
            }
            InstrKind::Call { callee, args } => {
                let params = args
                    .iter()
                    .map(|a| self.value(f, *a).cloned())
                    .collect::<Res<Vec<_>>>()?;
                if self.call(*callee, params)? == Flow::Halt {
                    return Ok(Some(Flow::Halt));
                }
                None
            }
            InstrKind::ParallelCopy(entries) => {
                let vals = entries
                    .iter()
                    .map(|(d, s)| Ok((*d, self.value(f, *s)?.clone())))
                    .collect::<Res<Vec<_>>>()?;
                for (d, v) in vals {
                    self.set(f, d, v)?;
                }
                None
            }
        };
        if let (Some(v), Some(d)) = (result, data.def) {
            self.set(f, d, v)?;
        }
        Ok(None)
    }

    fn alu(&self, f: &Frame, def: Option<Def>, alu: &Alu) -> Res<(Vec<u64>, u16)> {
        let def = def.ok_or_else(|| EvalError::malformed("ALU instruction without a def"))?;
        let (comps, bits) = def_shape(f.func, def)?;
        let info = alu.op.info();
        let mut srcs = Vec::with_capacity(alu.srcs.len());
        // Per source: undefined flags of the swizzled components, and whether the
        // source is read per component.
        let mut undef: Vec<(Vec<bool>, bool)> = Vec::with_capacity(alu.srcs.len());
        for (i, src) in alu.srcs.iter().enumerate() {
            let (_, sbits) = def_shape(f.func, src.def)?;
            let vals = self.data(f, src.def)?;
            let umask = self.undef(f, src.def)?;
            let size = match info.input_sizes.get(i) {
                Some(0) => comps,
                Some(n) => *n,
                None => {
                    return Err(EvalError::malformed(format!(
                        "too many sources for {}",
                        alu.op
                    )))
                }
            };
            let mut sw = Vec::with_capacity(usize::from(size));
            let mut su = Vec::with_capacity(usize::from(size));
            for c in 0..usize::from(size) {
                let s = usize::from(src.swizzle.get(c).copied().unwrap_or(0));
                let v = vals.get(s).copied().ok_or_else(|| {
                    EvalError::malformed(format!("swizzle reads component {s} of {}", src.def))
                })?;
                sw.push(v);
                su.push(bit(umask, s));
            }
            srcs.push((sbits, sw));
            undef.push((su, info.input_sizes.get(i) == Some(&0)));
        }
        let vals = fold_alu(alu.op, bits, comps, &srcs)
            .ok_or_else(|| EvalError::unsupported(format!("{} at bit size {bits}", alu.op)))?;
        let comp_undef = |i: usize| -> bool {
            let at = |s: usize, c: usize| {
                undef
                    .get(s)
                    .and_then(|u| u.0.get(c))
                    .copied()
                    .unwrap_or(false)
            };
            match alu.op {
                // Vector construction: component i is source i.
                Opcode::vec2 | Opcode::vec3 | Opcode::vec4 => at(i, 0),
                // Selections: the condition and the selected source only.
                Opcode::bcsel | Opcode::fcsel => {
                    let taken = srcs
                        .get(1)
                        .map(|_| {
                            let c = srcs[0].1.get(i).copied().unwrap_or(0);
                            if alu.op == Opcode::fcsel {
                                f32::from_bits(c as u32) != 0.0
                            } else {
                                c != 0
                            }
                        })
                        .unwrap_or(false);
                    at(0, i) || at(if taken { 1 } else { 2 }, i)
                }
                _ => undef.iter().any(|(u, per_comp)| {
                    if *per_comp {
                        u.get(i).copied().unwrap_or(false)
                    } else {
                        u.iter().any(|b| *b)
                    }
                }),
            }
        };
        let mask = mask_of((0..usize::from(comps)).map(comp_undef));
        Ok((vals, mask))
    }

    // ------------------------------------------------------------------ derefs

    fn deref(&mut self, f: &Frame, d: &Deref) -> Res<Ptr> {
        let structs = &self.shader.structs;
        let mut p = match &d.kind {
            DerefKind::Var(v) => {
                let var = self
                    .shader
                    .variables
                    .get(*v)
                    .ok_or_else(|| EvalError::malformed(format!("unknown variable {v}")))?;
                let mut p = Ptr {
                    root: Root::Global(*v),
                    slot: 0,
                    comp: 0,
                    byte: 0,
                    ty: var.ty.clone(),
                    vertex_pending: false,
                    block_pending: false,
                    sampler: 0,
                    image: 0,
                    vertex: 0,
                    compact: false,
                    row_major: false,
                    comp_bytes: 4,
                    wildcards: Vec::new(),
                    out_of_bounds: false,
                };
                match var.mode {
                    VarMode::FunctionTemp if f.func.locals.contains(v) => {
                        p.root = Root::Local {
                            frame: f.id,
                            var: *v,
                        }
                    }
                    VarMode::FunctionTemp | VarMode::ShaderTemp => {}
                    VarMode::ShaderIn | VarMode::ShaderOut => {
                        p.root = if var.mode == VarMode::ShaderIn {
                            Root::Input
                        } else {
                            Root::Output
                        };
                        p.slot = i64::from(var.location);
                        p.comp = i64::from(var.location_frac);
                        p.compact = is_compact(var);
                        p.vertex_pending = var.mode == VarMode::ShaderIn
                            && self.shader.stage == Stage::Geometry
                            && matches!(var.ty, Type::Array(..));
                    }
                    VarMode::Uniform => {
                        p.root = Root::Uniform;
                        p.slot = i64::from(var.driver_location);
                        p.sampler = i64::from(var.driver_location);
                        p.image = i64::from(var.driver_location);
                    }
                    VarMode::Ubo => {
                        p.root = Root::Ubo(var.driver_location);
                        p.byte = i64::from(var.location.max(0));
                        p.block_pending = matches!(var.ty, Type::Array(..));
                    }
                    VarMode::SystemValue => p.root = Root::SysVal(var.location),
                    VarMode::Ssbo | VarMode::Shared => {
                        return Err(EvalError::unsupported(format!(
                            "{} variable derefs (run lower_explicit_io first)",
                            var.mode.deref_name()
                        )))
                    }
                }
                p
            }
            DerefKind::Array { parent, index } => {
                let mut p = self.ptr(f, *parent)?.clone();
                let idx = self.scalar(f, *index)?;
                if p.vertex_pending {
                    p.vertex_pending = false;
                    match u32::try_from(idx) {
                        Ok(v) => p.vertex = v,
                        Err(_) => p.out_of_bounds = true,
                    }
                } else if p.block_pending {
                    // Arrays of arrays of blocks number their blocks in
                    // row-major order: each index steps over the blocks of
                    // one element, and the block is picked at the last one.
                    let (len, per, inner_array) = match &p.ty {
                        Type::Array(e, n) => (
                            i64::from(*n),
                            e.flattened_array_len(),
                            matches!(**e, Type::Array(..)),
                        ),
                        _ => (0, 1, false),
                    };
                    p.block_pending = inner_array;
                    match (p.root, u32::try_from(idx)) {
                        (Root::Ubo(b), Ok(i)) if idx < len => {
                            p.root = Root::Ubo(b.saturating_add(i.saturating_mul(per)))
                        }
                        _ => p.out_of_bounds = true,
                    }
                } else {
                    let (len, slot_step, comp_step, byte_step, sampler_step) = match &p.ty {
                        Type::Array(e, n) => {
                            let samplers = memory::samplers(e, structs);
                            let stride = memory::std140_stride(e, structs, p.row_major);
                            if p.compact {
                                (*n, 0, 1, stride, samplers)
                            } else {
                                (*n, memory::slots(e, structs), 0, stride, samplers)
                            }
                        }
                        Type::Matrix { columns, .. } => {
                            let (col, comp) = memory::std140_matrix_steps(p.row_major);
                            p.comp_bytes = comp;
                            (u32::from(*columns), 1, 0, col, 0)
                        }
                        Type::Vector(_, n) => (u32::from(*n), 0, 1, p.comp_bytes, 0),
                        other => {
                            return Err(EvalError::malformed(format!(
                                "array deref of a non-array type {other:?}"
                            )))
                        }
                    };
                    if idx < 0 || (len > 0 && idx >= i64::from(len)) {
                        p.out_of_bounds = true;
                    }
                    p.slot = p.slot.saturating_add(idx.saturating_mul(slot_step));
                    p.comp = p.comp.saturating_add(idx.saturating_mul(comp_step));
                    p.byte = p.byte.saturating_add(idx.saturating_mul(byte_step));
                    p.sampler = p.sampler.saturating_add(idx.saturating_mul(sampler_step));
                    if let Type::Array(e, _) = &p.ty {
                        let step = memory::images(e, structs);
                        p.image = p.image.saturating_add(idx.saturating_mul(step));
                    }
                }
                p
            }
            DerefKind::ArrayWildcard { parent } => {
                let mut p = self.ptr(f, *parent)?.clone();
                match &p.ty {
                    Type::Array(e, n) => {
                        let (s, c) = if p.compact {
                            (0, 1)
                        } else {
                            (memory::slots(e, structs), 0)
                        };
                        p.wildcards.push((
                            s,
                            c,
                            memory::std140_stride(e, structs, p.row_major),
                            *n,
                        ));
                    }
                    other => {
                        return Err(EvalError::malformed(format!(
                            "wildcard deref of a non-array type {other:?}"
                        )))
                    }
                }
                p
            }
            DerefKind::Struct { parent, field } => {
                let mut p = self.ptr(f, *parent)?.clone();
                let Type::Struct(id) = &p.ty else {
                    return Err(EvalError::malformed(format!(
                        "struct deref of a non-struct type {:?}",
                        p.ty
                    )));
                };
                let def = structs
                    .get(id.index())
                    .ok_or_else(|| EvalError::malformed(format!("unknown struct {id}")))?;
                let field = *field as usize;
                if field >= def.fields.len() {
                    return Err(EvalError::malformed(format!(
                        "struct {} has no field {field}",
                        def.name
                    )));
                }
                p.slot = p
                    .slot
                    .saturating_add(memory::slot_field_offset(def, field, structs));
                p.byte = p.byte.saturating_add(memory::std140_field_offset(
                    def,
                    field,
                    structs,
                    p.row_major,
                ));
                p.row_major = def.field_row_major(field, p.row_major);
                p.sampler = p
                    .sampler
                    .saturating_add(memory::sampler_field_offset(def, field, structs));
                p.image = p
                    .image
                    .saturating_add(memory::image_field_offset(def, field, structs));
                p
            }
            DerefKind::Cast { parent, .. } => self.ptr(f, *parent)?.clone(),
        };
        p.ty = d.ty.clone();
        Ok(p)
    }

    /// Every scalar location a deref covers, in flattening order, with the scalar
    /// type of each.
    fn expand(&self, p: &Ptr) -> Res<Vec<(Addr, BaseType)>> {
        let structs = &self.shader.structs;
        let too_big = || EvalError::unsupported("copy of more than 2^20 scalars");
        if p.block_pending {
            return Err(EvalError::unsupported(
                "copy of a whole array of uniform blocks",
            ));
        }
        let mut bases = vec![(p.slot, p.comp, p.byte)];
        for &(ss, cs, bs, len) in &p.wildcards {
            if bases.len().saturating_mul(len as usize) > memory::MAX_LEAVES {
                return Err(too_big());
            }
            bases = bases
                .iter()
                .flat_map(|&(s, c, b)| {
                    (0..i64::from(len)).map(move |i| (s + ss * i, c + cs * i, b + bs * i))
                })
                .collect();
        }
        let (ty, vertices) = match (&p.ty, p.vertex_pending) {
            (Type::Array(e, n), true) => ((**e).clone(), (0..*n).collect::<Vec<_>>()),
            _ => (p.ty.clone(), vec![p.vertex]),
        };
        let leaves: Vec<Leaf> =
            memory::leaves(&ty, structs, p.compact, (p.row_major, p.comp_bytes))
                .ok_or_else(too_big)?;
        let total = bases
            .len()
            .saturating_mul(vertices.len())
            .saturating_mul(leaves.len());
        if total > memory::MAX_LEAVES {
            return Err(too_big());
        }
        let mut out = Vec::with_capacity(total);
        for &(s, c, b) in &bases {
            for &vertex in &vertices {
                for leaf in &leaves {
                    out.push((
                        Addr {
                            root: p.root,
                            vertex,
                            slot: s + leaf.slot,
                            comp: c + leaf.comp,
                            byte: b + leaf.byte,
                        },
                        leaf.base,
                    ));
                }
            }
        }
        Ok(out)
    }

    /// Reads one scalar: (bits, undefined). Never-written temporaries and outputs are
    /// undefined; everything outside its storage reads 0 and is counted.
    fn read(&mut self, a: Addr) -> (u64, bool) {
        let (slot, comp) = memory::normalise(a.slot, a.comp);
        match a.root {
            Root::Local { .. } | Root::Global(_) => self
                .mem
                .get(&(a.root, slot, comp))
                .copied()
                .unwrap_or((0, true)),
            Root::Input => match (i32::try_from(slot), u8::try_from(comp)) {
                (Ok(location), Ok(component)) => {
                    let key = InputKey {
                        vertex: a.vertex,
                        location,
                        component,
                    };
                    match self.input.inputs.get(&key) {
                        Some(v) => (u64::from(*v), self.input.undefined_inputs.contains(&key)),
                        None => (0, self.input.missing_inputs_undefined),
                    }
                }
                _ => {
                    self.out.out_of_bounds += 1;
                    (0, true)
                }
            },
            Root::Output => match (i32::try_from(slot), u8::try_from(comp)) {
                (Ok(l), Ok(c)) => match self.out.outputs.get(&(l, c)) {
                    Some(v) => (u64::from(*v), self.out.undefined.contains(&(l, c))),
                    None => (0, true),
                },
                _ => {
                    self.out.out_of_bounds += 1;
                    (0, true)
                }
            },
            Root::Uniform => {
                match usize::try_from(slot)
                    .ok()
                    .and_then(|s| self.input.uniforms.get(s))
                {
                    Some(v) => (u64::from(v[comp as usize]), false),
                    None => {
                        self.out.out_of_bounds += 1;
                        (0, true)
                    }
                }
            }
            Root::Ubo(block) => self.read_ubo(block, a.byte, 4),
            Root::SysVal(loc) => (
                self.input
                    .system_values
                    .get(&loc)
                    .map(|v| u64::from(v[comp as usize]))
                    .unwrap_or(0),
                false,
            ),
        }
    }

    fn read_ubo(&mut self, block: u32, byte: i64, size: usize) -> (u64, bool) {
        let buf = self.input.ubos.get(block as usize);
        let range = usize::try_from(byte)
            .ok()
            .and_then(|b| Some(b..b.checked_add(size)?));
        match (buf, range) {
            (Some(buf), Some(r)) if r.end <= buf.len() => {
                let mut v = 0u64;
                for (i, byte) in buf[r].iter().enumerate() {
                    v |= u64::from(*byte) << (8 * i);
                }
                (v, false)
            }
            _ => {
                self.out.out_of_bounds += 1;
                (0, true)
            }
        }
    }

    fn write(&mut self, a: Addr, v: u64, undef: bool) -> Res<()> {
        let (slot, comp) = memory::normalise(a.slot, a.comp);
        match a.root {
            Root::Local { .. } | Root::Global(_) => {
                self.mem.insert((a.root, slot, comp), (v, undef));
            }
            Root::Output => match (i32::try_from(slot), u8::try_from(comp)) {
                (Ok(l), Ok(c)) => {
                    self.out.outputs.insert((l, c), v as u32);
                    if undef {
                        self.out.undefined.insert((l, c));
                    } else {
                        self.out.undefined.remove(&(l, c));
                    }
                }
                _ => {
                    self.out.out_of_bounds += 1;
                    self.out.out_of_bounds_writes += 1;
                }
            },
            Root::Input | Root::Uniform | Root::Ubo(_) | Root::SysVal(_) => {
                return Err(EvalError::malformed(format!(
                    "store to read-only storage {:?}",
                    a.root
                )))
            }
        }
        Ok(())
    }

    fn addr(p: &Ptr, comp: i64) -> Addr {
        Addr {
            root: p.root,
            vertex: p.vertex,
            slot: p.slot,
            comp: p.comp + comp,
            byte: p.byte + p.comp_bytes * comp,
        }
    }

    fn load_deref(&mut self, p: &Ptr, comps: u8, bits: u8) -> Res<(Vec<u64>, u16)> {
        if p.out_of_bounds || p.vertex_pending || p.block_pending || !p.wildcards.is_empty() {
            self.out.out_of_bounds += 1;
            return Ok((
                vec![0; usize::from(comps)],
                mask_of((0..comps).map(|_| true)),
            ));
        }
        let mut out = Vec::with_capacity(usize::from(comps));
        let mut undef = Vec::with_capacity(usize::from(comps));
        for i in 0..i64::from(comps) {
            let (v, u) = self.read(Self::addr(p, i));
            out.push(norm_bits(v, bits));
            undef.push(u);
        }
        Ok((out, mask_of(undef)))
    }

    fn store_deref(&mut self, p: &Ptr, vals: &[u64], undef: u16, wrmask: u32) -> Res<()> {
        if p.out_of_bounds || p.vertex_pending || p.block_pending || !p.wildcards.is_empty() {
            self.out.out_of_bounds += 1;
            self.out.out_of_bounds_writes += 1;
            return Ok(());
        }
        for (i, v) in vals.iter().enumerate().take(16) {
            if wrmask & (1 << i) != 0 {
                self.write(Self::addr(p, i as i64), *v, bit(undef, i))?;
            }
        }
        Ok(())
    }

    fn copy_deref(&mut self, dst: &Ptr, src: &Ptr) -> Res<()> {
        if dst.out_of_bounds {
            self.out.out_of_bounds += 1;
            self.out.out_of_bounds_writes += 1;
            return Ok(());
        }
        let d = self.expand(dst)?;
        let s = self.expand(src)?;
        if d.len() != s.len() {
            return Err(EvalError::malformed(format!(
                "copy_deref between types of different sizes ({:?} and {:?})",
                dst.ty, src.ty
            )));
        }
        if src.out_of_bounds {
            self.out.out_of_bounds += 1;
        }
        for ((da, _), (sa, base)) in d.into_iter().zip(s) {
            let (v, u) = if src.out_of_bounds {
                (0, true)
            } else {
                self.read(sa)
            };
            let v = if base == BaseType::Bool {
                u64::from(v != 0)
            } else {
                v & 0xffff_ffff
            };
            self.write(da, v, u)?;
        }
        Ok(())
    }

    // ------------------------------------------------------------------ intrinsics

    fn index(intr: &Intrinsic, kind: IndexKind) -> u32 {
        intr.op
            .info()
            .index_slot(kind)
            .and_then(|i| intr.indices.get(i))
            .copied()
            .unwrap_or(0)
    }

    fn src(intr: &Intrinsic, i: usize) -> Res<Def> {
        intr.srcs
            .get(i)
            .copied()
            .ok_or_else(|| EvalError::malformed(format!("@{} lacks source {i}", intr.op)))
    }

    fn io_read(
        &mut self,
        vertex: u32,
        location: i64,
        component: i64,
        comps: u8,
        bits: u8,
        output: bool,
    ) -> (Vec<u64>, u16) {
        let mut out = Vec::with_capacity(usize::from(comps));
        let mut undef = Vec::with_capacity(usize::from(comps));
        for i in 0..i64::from(comps) {
            let root = if output { Root::Output } else { Root::Input };
            let (v, u) = self.read(Addr {
                root,
                vertex,
                slot: location,
                comp: component + i,
                byte: 0,
            });
            out.push(norm_bits(v, bits));
            undef.push(u);
        }
        (out, mask_of(undef))
    }

    /// Ok(Ok(value)) for a normal result, Ok(Err(flow)) when the invocation ends.
    fn intrinsic(
        &mut self,
        f: &mut Frame<'a>,
        def: Option<Def>,
        intr: &Intrinsic,
    ) -> Res<Result<Option<Value>, Flow>> {
        use IntrinsicOp as I;
        let shape = match def {
            Some(d) => def_shape(f.func, d)?,
            None => (0, 0),
        };
        let (comps, bits) = shape;
        let io_loc = i64::from(Self::index(intr, IndexKind::IoSemantics) & 0xffff);
        let component = i64::from(Self::index(intr, IndexKind::Component));
        let data = |v: Vec<u64>| Ok(Ok(Some(Value::Data(v, 0))));
        let data_u = |(v, m): (Vec<u64>, u16)| Ok(Ok(Some(Value::Data(v, m))));
        match intr.op {
            I::load_deref => {
                let p = self.ptr(f, Self::src(intr, 0)?)?.clone();
                let v = self.load_deref(&p, comps, bits)?;
                data_u(v)
            }
            I::store_deref => {
                let p = self.ptr(f, Self::src(intr, 0)?)?.clone();
                let vals = self.data(f, Self::src(intr, 1)?)?.to_vec();
                let undef = self.undef(f, Self::src(intr, 1)?)?;
                let mask = Self::index(intr, IndexKind::WriteMask);
                self.store_deref(&p, &vals, undef, mask)?;
                Ok(Ok(None))
            }
            I::copy_deref => {
                let d = self.ptr(f, Self::src(intr, 0)?)?.clone();
                let s = self.ptr(f, Self::src(intr, 1)?)?.clone();
                self.copy_deref(&d, &s)?;
                Ok(Ok(None))
            }
            I::load_param => {
                let idx = Self::index(intr, IndexKind::ParamIdx) as usize;
                let v = f.params.get(idx).cloned().ok_or_else(|| {
                    EvalError::malformed(format!("load_param {idx}: no such parameter"))
                })?;
                Ok(Ok(Some(v)))
            }
            I::load_input | I::load_interpolated_input | I::load_per_vertex_input => {
                let (vertex, off) = match intr.op {
                    I::load_input => (0, self.scalar(f, Self::src(intr, 0)?)?),
                    I::load_interpolated_input => (0, self.scalar(f, Self::src(intr, 1)?)?),
                    _ => {
                        let v = self.scalar(f, Self::src(intr, 0)?)?;
                        let o = self.scalar(f, Self::src(intr, 1)?)?;
                        match u32::try_from(v) {
                            Ok(v) => (v, o),
                            Err(_) => {
                                self.out.out_of_bounds += 1;
                                return data(vec![0; usize::from(comps)]);
                            }
                        }
                    }
                };
                let v = self.io_read(
                    vertex,
                    io_loc.saturating_add(off),
                    component,
                    comps,
                    bits,
                    false,
                );
                data_u(v)
            }
            I::load_output => {
                let off = self.scalar(f, Self::src(intr, 0)?)?;
                let v = self.io_read(0, io_loc.saturating_add(off), component, comps, bits, true);
                data_u(v)
            }
            I::store_output => {
                let vals = self.data(f, Self::src(intr, 0)?)?.to_vec();
                let undef = self.undef(f, Self::src(intr, 0)?)?;
                let off = self.scalar(f, Self::src(intr, 1)?)?;
                let mask = Self::index(intr, IndexKind::WriteMask);
                for (i, v) in vals.iter().enumerate().take(16) {
                    if mask & (1 << i) != 0 {
                        self.write(
                            Addr {
                                root: Root::Output,
                                vertex: 0,
                                slot: io_loc.saturating_add(off),
                                comp: component + i as i64,
                                byte: 0,
                            },
                            *v & 0xffff_ffff,
                            bit(undef, i),
                        )?;
                    }
                }
                Ok(Ok(None))
            }
            I::load_barycentric_pixel
            | I::load_barycentric_centroid
            | I::load_barycentric_sample
            | I::load_barycentric_at_offset => data(vec![0; usize::from(comps)]),
            I::load_uniform => {
                let off = self.scalar(f, Self::src(intr, 0)?)?;
                let base = i64::from(Self::index(intr, IndexKind::Base));
                let mut out = Vec::with_capacity(usize::from(comps));
                let mut undef = Vec::with_capacity(usize::from(comps));
                for i in 0..i64::from(comps) {
                    let (v, u) = self.read(Addr {
                        root: Root::Uniform,
                        vertex: 0,
                        slot: base.saturating_add(off),
                        comp: i,
                        byte: 0,
                    });
                    out.push(norm_bits(v, bits));
                    undef.push(u);
                }
                data_u((out, mask_of(undef)))
            }
            I::load_ubo => {
                let block = self.scalar(f, Self::src(intr, 0)?)?;
                let off = self.scalar(f, Self::src(intr, 1)?)?;
                let size = usize::from(bits.max(8) / 8);
                let mut out = Vec::with_capacity(usize::from(comps));
                let mut undef = Vec::with_capacity(usize::from(comps));
                let Ok(block) = u32::try_from(block) else {
                    self.out.out_of_bounds += 1;
                    return data_u((
                        vec![0; usize::from(comps)],
                        mask_of((0..comps).map(|_| true)),
                    ));
                };
                for i in 0..i64::from(comps) {
                    let (v, u) = self.read_ubo(block, off.saturating_add(i * size as i64), size);
                    out.push(norm_bits(v, bits));
                    undef.push(u);
                }
                data_u((out, mask_of(undef)))
            }
            I::load_user_clip_plane => {
                let id = Self::index(intr, IndexKind::UcpId) as usize;
                let plane = self.input.clip_planes.get(id).copied().unwrap_or([0; 4]);
                data(
                    (0..usize::from(comps))
                        .map(|i| u64::from(plane.get(i).copied().unwrap_or(0)))
                        .collect(),
                )
            }
            I::shader_clock => data(super::clock::read_2x32().map(u64::from).to_vec()),
            I::ddx | I::ddy | I::ddx_fine | I::ddx_coarse | I::ddy_fine | I::ddy_coarse => {
                let undef = self.undef(f, Self::src(intr, 0)?)?;
                data_u((vec![0; usize::from(comps)], undef))
            }
            I::discard | I::terminate | I::demote => {
                self.out.discarded = true;
                Ok(Err(Flow::Halt))
            }
            I::discard_if | I::terminate_if | I::demote_if => {
                if self.cond(f, Self::src(intr, 0)?)? {
                    self.out.discarded = true;
                    Ok(Err(Flow::Halt))
                } else {
                    Ok(Ok(None))
                }
            }
            I::emit_vertex => {
                if self.out.emitted.len() < MAX_EMITTED {
                    self.out.emitted.push(EmittedVertex {
                        stream: Self::index(intr, IndexKind::StreamId),
                        primitive: self.out.primitives_ended,
                        outputs: self.out.outputs.clone(),
                        undefined: self.out.undefined.clone(),
                    });
                } else {
                    self.out.out_of_bounds += 1;
                }
                Ok(Ok(None))
            }
            I::end_primitive => {
                self.out.primitives_ended += 1;
                Ok(Ok(None))
            }
            I::load_helper_invocation => data(vec![0; usize::from(comps)]),
            op if image::handles(op) => Ok(Ok(self.image_intrinsic(f, intr, shape)?)),
            op if compute::handles(op) => {
                let key = def.map_or(0, |d| d.index() as u64);
                Ok(Ok(self.compute_intrinsic(f, intr, shape, key)?))
            }
            op => match sysval_of(op) {
                Some(loc) => {
                    let v = self
                        .input
                        .system_values
                        .get(&loc)
                        .copied()
                        .unwrap_or([0; 4]);
                    data(
                        (0..usize::from(comps))
                            .map(|i| norm_bits(u64::from(v.get(i).copied().unwrap_or(0)), bits))
                            .collect(),
                    )
                }
                None => Err(EvalError::unsupported(format!("intrinsic @{op}"))),
            },
        }
    }

    // ------------------------------------------------------------------ textures

    fn tex(&mut self, f: &Frame, def: Option<Def>, t: &Tex) -> Res<(Vec<u64>, u16)> {
        let def = def.ok_or_else(|| EvalError::malformed("tex without a def"))?;
        let (comps, _) = def_shape(f.func, def)?;
        let mut index = i64::from(t.texture_index);
        let mut srcs = Vec::new();
        let mut undef = false;
        for (kind, d) in &t.srcs {
            if !matches!(kind, TexSrcKind::TextureDeref | TexSrcKind::SamplerDeref) {
                undef |= self.undef(f, *d)? != 0;
            }
            match kind {
                TexSrcKind::TextureDeref => {
                    let p = self.ptr(f, *d)?;
                    if p.out_of_bounds {
                        self.out.out_of_bounds += 1;
                        undef = true;
                    }
                    if p.root != Root::Uniform {
                        return Err(EvalError::unsupported(
                            "texture deref that is not a uniform sampler",
                        ));
                    }
                    index = p.sampler;
                }
                TexSrcKind::SamplerDeref | TexSrcKind::SamplerOffset => {}
                TexSrcKind::TextureOffset => {
                    index = index.saturating_add(self.scalar(f, *d)?);
                }
                k => srcs.push((*k, self.data(f, *d)?)),
            }
        }
        let texture = usize::try_from(index)
            .ok()
            .and_then(|i| self.input.textures.get(i))
            .unwrap_or(&self.default_texture);
        let seeded;
        let texture = if texture.texels.is_none() && texture.seed == 0 {
            seeded = Texture {
                seed: (index as u32).wrapping_add(1),
                ..texture.clone()
            };
            &seeded
        } else {
            texture
        };
        let result = texture::sample(t, texture, &TexArgs { srcs });
        if comps > 4 {
            return Err(EvalError::malformed(
                "tex result with more than 4 components",
            ));
        }
        let mask = if undef {
            mask_of((0..comps).map(|_| true))
        } else {
            0
        };
        Ok((
            result
                .iter()
                .take(usize::from(comps))
                .map(|v| u64::from(*v))
                .collect(),
            mask,
        ))
    }
}
