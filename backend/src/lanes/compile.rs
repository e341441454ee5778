//! NIR → lane program: register assignment (one register per scalar component of
//! every SSA def; constants in registers), the IO interface
//! ([`ShaderInfo`]) from the lowered IO intrinsics, structured control flow to masked
//! `If`/`Else`/`EndIf` and `Loop`/`EndLoop` ops, phis to masked moves at the end of
//! their predecessor blocks (through temporaries when a source is a phi of the same
//! block, so swaps stay parallel), and the remaining local arrays (indirectly indexed
//! temporaries `lower_indirect_derefs` left alone) to register ranges addressed by a
//! per-lane element offset with bounds checks.
//!
//! Small optimisations on the way: loads of per-batch values (inputs, uniforms at
//! constant slots, system values) go to a prologue run once per batch, so they leave
//! loops; an `fmul` whose only use is an `fadd` of the same block becomes part of one
//! `FMulAdd` op (still two roundings); `if (c) break;` / `if (c) continue;` become one
//! `BreakIf` / `ContinueIf` that also ends the iteration when no lane is left; a
//! loop-header phi shares its register with its back-edge source when no later read
//! can observe the early write (so loops carry values without moves).

use std::collections::BTreeMap;

use rgl_nir::arena::EntityRef;
use rgl_nir::intrinsics::{IndexKind, IntrinsicOp};
use rgl_nir::ir::names::VARYING_SLOT_POS;
use rgl_nir::ir::*;

use super::alu::{compile_alu, RegMap};
use super::program::{Op, Program, SysKind, Un, MAX_DEPTH};
use super::tex::compile_tex;
use crate::exec::{sysval, GsInfo as ExecGs, GsOutput, IoDecl, ShaderInfo, ShaderStage};
use crate::{Error, Result};

/// `VARYING_SLOT_PNTC`.
const VARYING_SLOT_PNTC: i32 = 25;
/// `VARYING_SLOT_PRIMITIVE_ID`.
const VARYING_SLOT_PRIMITIVE_ID: i32 = 21;
/// `VARYING_SLOT_FACE`.
const VARYING_SLOT_FACE: i32 = 24;
/// Most scalar registers one program may use (16 MiB of register file per thread).
const MAX_REGS: u32 = 1 << 18;

fn unsupported<T>(msg: impl Into<String>) -> Result<T> {
    Err(Error::Unsupported(msg.into()))
}

fn index(intr: &Intrinsic, kind: IndexKind) -> u32 {
    intr.op
        .info()
        .index_slot(kind)
        .and_then(|i| intr.indices.get(i))
        .copied()
        .unwrap_or(0)
}

/// Scalars of a type, flattened (vectors by component, matrices by column, arrays by
/// element, structs by field).
fn flat_size(ty: &Type, structs: &[StructDef], depth: u32) -> Option<u64> {
    if depth > 64 {
        return None;
    }
    Some(match ty {
        Type::Scalar(_) | Type::Sampler { .. } => 1,
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

/// A deref value: a place in a local array.
#[derive(Clone, Debug)]
struct Place {
    base: u32,
    size: u32,
    off: Option<u32>,
    konst: u32,
    ty: Type,
    oob: bool,
}

/// Where inputs and outputs live.
struct Io {
    /// Input location → input index.
    inputs: BTreeMap<i32, usize>,
    /// Output location → output index.
    outputs: BTreeMap<i32, usize>,
}

struct Compiler<'a> {
    shader: &'a Shader,
    func: &'a FunctionImpl,
    stage: ShaderStage,
    regs: Vec<Option<u32>>,
    next: u32,
    consts: Vec<(u32, u32)>,
    zero: Option<u32>,
    locals: Vec<(u32, Vec<u32>)>,
    local_of: BTreeMap<VarId, (u32, u32)>,
    places: BTreeMap<Def, Place>,
    ops: Vec<Op>,
    prologue: Vec<Op>,
    /// Users of every def (by def index).
    uses: Vec<Vec<Instr>>,
    /// `fmul`s folded into their `fadd`.
    deferred: BTreeMap<Def, Alu>,
    io: Io,
    depth: u32,
    max_depth: u32,
    loop_slots: Vec<u32>,
    /// Per open loop: `BreakIf`/`ContinueIf` ops to point at its `EndLoop`.
    loop_exits: Vec<Vec<usize>>,
    sysvals: u32,
    uses_discard: bool,
    gs_vertices: u32,
}

impl RegMap for Compiler<'_> {
    fn reg(&mut self, d: Def, c: u8) -> Result<u32> {
        let dd = self
            .func
            .defs
            .get(d)
            .ok_or_else(|| Error::Unsupported(format!("malformed NIR: unknown def {d}")))?;
        if c >= dd.num_components {
            return unsupported(format!(
                "malformed NIR: component {c} of {}-component {d}",
                dd.num_components
            ));
        }
        let i = d.index();
        if self.regs.len() <= i {
            self.regs.resize(i + 1, None);
        }
        let base = match self.regs[i] {
            Some(b) => b,
            None => {
                let b = self.alloc(u32::from(dd.num_components))?;
                self.regs[i] = Some(b);
                b
            }
        };
        Ok(base + u32::from(c))
    }
    fn bits(&self, d: Def) -> u8 {
        self.func.defs.get(d).map(|x| x.bit_size).unwrap_or(32)
    }
}

impl<'a> Compiler<'a> {
    fn alloc(&mut self, n: u32) -> Result<u32> {
        let b = self.next;
        self.next = self
            .next
            .checked_add(n)
            .filter(|v| *v <= MAX_REGS)
            .ok_or_else(|| {
                Error::TooLarge("shader needs more than 2^18 scalar registers".into())
            })?;
        Ok(b)
    }

    fn zero(&mut self) -> Result<u32> {
        if let Some(z) = self.zero {
            return Ok(z);
        }
        let z = self.alloc(1)?;
        self.consts.push((z, 0));
        self.zero = Some(z);
        Ok(z)
    }

    fn konst(&self, d: Def) -> Option<i64> {
        let v = self.func.const_value(d)?;
        Some(v.first().copied().unwrap_or(0) as u32 as i32 as i64)
    }

    fn def_of(&self, instr: Instr) -> Result<Def> {
        self.func.instrs[instr]
            .def
            .ok_or_else(|| Error::Unsupported("malformed NIR: instruction without a def".into()))
    }

    fn shape(&self, d: Def) -> (u8, u8) {
        let dd = &self.func.defs[d];
        (dd.num_components, dd.bit_size)
    }

    /// Gives a loop-header phi and its back-edge source one register, so the
    /// back-edge needs no move, when that is safe under masked execution:
    /// the phi has exactly two sources (entry and the body's last block `last`), the
    /// source is an ALU result defined in `last` and read by no other phi of the
    /// header, the phi is no back-edge source itself, and no instruction reads the
    /// phi after the source is written (reads by the defining instruction itself only
    /// component-wise, lane for lane). Lanes that leave the iteration earlier are not
    /// active when the source is written, so they keep the phi's old value.
    fn coalesce_loop_phis(&mut self, body: CfList) -> Result<()> {
        let f = self.func;
        let (Some(first), Some(lastn)) = (body.first, body.last) else {
            return Ok(());
        };
        let (Some(header), Some(last)) = (f.cf_block(first), f.cf_block(lastn)) else {
            return Ok(());
        };
        if f.block_jump(last).is_some() {
            return Ok(());
        }
        let last_instrs = f.block_instrs(last);
        let pos = |i: Instr| last_instrs.iter().position(|x| *x == i);
        let mut phis = Vec::new();
        for i in f.block_instrs(header) {
            let InstrKind::Phi(srcs) = &f.instrs[i].kind else {
                break;
            };
            phis.push((i, srcs.clone()));
        }
        let back_srcs: Vec<Def> = phis
            .iter()
            .filter_map(|(_, srcs)| srcs.iter().find(|(b, _)| *b == last).map(|(_, d)| *d))
            .collect();
        for (pi, srcs) in &phis {
            let Some(p) = f.instrs[*pi].def else { continue };
            if srcs.len() != 2 || back_srcs.contains(&p) {
                continue;
            }
            let Some(&(_, sdef)) = srcs.iter().find(|(b, _)| *b == last) else {
                continue;
            };
            let si = f.defs[sdef].instr;
            let Some(spos) = pos(si) else { continue };
            let InstrKind::Alu(salu) = &f.instrs[si].kind else {
                continue;
            };
            if back_srcs.iter().filter(|d| **d == sdef).count() != 1
                || self.regs.get(sdef.index()).copied().flatten().is_some()
                || self.deferred.contains_key(&sdef)
                || (salu.op == rgl_nir::opcodes::Opcode::fmul && self.fusable_fmul(si, salu, sdef))
            {
                continue;
            }
            let n = self.shape(p).0;
            // Does `alu` read `p` only lane-for-lane (component c for result c)?
            let lanewise = |alu: &Alu, map: &dyn Fn(usize) -> usize| {
                let info = alu.op.info();
                info.output_size == 0
                    && info.input_sizes.iter().all(|x| *x == 0)
                    && alu.srcs.iter().all(|src| {
                        src.def != p || (0..n as usize).all(|c| src.swizzle[map(c)] as usize == c)
                    })
            };
            let mut safe = true;
            for &u in self.uses.get(p.index()).map_or(&[][..], |v| &v[..]) {
                if f.instr_block(u) != Some(last) {
                    continue;
                }
                let Some(upos) = pos(u) else {
                    safe = false;
                    break;
                };
                let InstrKind::Alu(ualu) = &f.instrs[u].kind else {
                    safe &= upos < spos;
                    continue;
                };
                let ud = f.instrs[u].def;
                // Where does `u` really read `p`: at its own position, or (an fmul
                // fused into its fadd) at the fadd's.
                let fused_into = ud
                    .filter(|d| self.fusable_fmul(u, ualu, *d))
                    .and_then(|d| self.uses.get(d.index()).and_then(|v| v.first().copied()));
                match fused_into {
                    Some(add) => {
                        let Some(apos) = pos(add) else {
                            safe = false;
                            break;
                        };
                        if apos > spos {
                            safe = false;
                        } else if apos == spos {
                            let InstrKind::Alu(aalu) = &f.instrs[add].kind else {
                                safe = false;
                                break;
                            };
                            let Some(k) = aalu.srcs.iter().position(|x| Some(x.def) == ud) else {
                                safe = false;
                                break;
                            };
                            let sw = aalu.srcs[k].swizzle;
                            safe &= lanewise(aalu, &|c| c) && lanewise(ualu, &|c| sw[c] as usize);
                        }
                    }
                    None => {
                        if upos > spos {
                            safe = false;
                        } else if upos == spos {
                            safe &= lanewise(ualu, &|c| c);
                        }
                    }
                }
                if !safe {
                    break;
                }
            }
            if !safe {
                continue;
            }
            let base = self.reg(p, 0)?;
            let i = sdef.index();
            if self.regs.len() <= i {
                self.regs.resize(i + 1, None);
            }
            self.regs[i] = Some(base);
        }
        Ok(())
    }

    /// An `fmul` whose only use is an `fadd` later in the same block: it is emitted as
    /// part of that `fadd` (two roundings, like the separate ops, in one instruction).
    /// No phi move or other write can change its sources in between.
    fn fusable_fmul(&self, i: Instr, alu: &Alu, d: Def) -> bool {
        if alu.op != rgl_nir::opcodes::Opcode::fmul || self.shape(d).1 != 32 {
            return false;
        }
        let Some(users) = self.uses.get(d.index()) else {
            return false;
        };
        let [u] = users[..] else {
            return false;
        };
        let same_block = self.func.instr_block(u) == self.func.instr_block(i);
        let is_fadd = matches!(
            &self.func.instrs[u].kind,
            InstrKind::Alu(a) if a.op == rgl_nir::opcodes::Opcode::fadd
                && a.srcs[0].def != a.srcs[1].def
        );
        let add32 = self.func.instrs[u]
            .def
            .is_some_and(|ud| self.shape(ud).1 == 32);
        same_block && is_fadd && add32
    }

    /// Emits a load of a per-batch constant (an input, a uniform at a constant slot, a
    /// system value) into the prologue, which runs once per batch for every lane
    /// before the program: loop-invariant by construction. 1-bit results (normalised
    /// by a following op in the body) stay in place.
    fn hoist(&mut self, op: Op, bits: u8) {
        if bits == 32 {
            self.prologue.push(op);
        } else {
            self.ops.push(op);
        }
    }

    fn mov(&mut self, d: u32, a: u32) {
        self.ops.push(Op::Un { f: Un::Mov, d, a });
    }

    // ------------------------------------------------------------------ control flow

    fn list(&mut self, list: CfList) -> Result<()> {
        for node in self.func.list_nodes(list) {
            match self.func.cf[node].kind.clone() {
                CfKind::Block(b) => self.block(b)?,
                CfKind::If {
                    cond,
                    then_list,
                    else_list,
                } => {
                    let slot = self.enter()?;
                    let c = self.reg(cond, 0)?;
                    let at_if = self.ops.len();
                    self.ops.push(Op::If {
                        cond: c,
                        slot,
                        else_pc: 0,
                    });
                    self.list(then_list)?;
                    let at_else = self.ops.len();
                    self.ops.push(Op::Else { slot, end_pc: 0 });
                    self.list(else_list)?;
                    let at_end = self.ops.len();
                    self.ops.push(Op::EndIf { slot });
                    if let Op::If { else_pc, .. } = &mut self.ops[at_if] {
                        *else_pc = at_else as u32;
                    }
                    if let Op::Else { end_pc, .. } = &mut self.ops[at_else] {
                        *end_pc = at_end as u32;
                    }
                    self.depth -= 1;
                    self.fold_conditional_jump(at_if, c);
                }
                CfKind::Loop { body } => {
                    self.coalesce_loop_phis(body)?;
                    let slot = self.enter()?;
                    let at_loop = self.ops.len();
                    self.ops.push(Op::Loop { slot, exit_pc: 0 });
                    self.loop_slots.push(slot);
                    self.loop_exits.push(Vec::new());
                    self.list(body)?;
                    self.loop_slots.pop();
                    let at_end = self.ops.len() as u32;
                    for at in self.loop_exits.pop().unwrap_or_default() {
                        if let Op::BreakIf { end_pc, .. } | Op::ContinueIf { end_pc, .. } =
                            &mut self.ops[at]
                        {
                            *end_pc = at_end;
                        }
                    }
                    self.ops.push(Op::EndLoop {
                        slot,
                        body_pc: at_loop as u32 + 1,
                    });
                    let exit = self.ops.len() as u32;
                    if let Op::Loop { exit_pc, .. } = &mut self.ops[at_loop] {
                        *exit_pc = exit;
                    }
                    self.depth -= 1;
                }
            }
        }
        Ok(())
    }

    /// `if (c) break;` / `if (c) continue;` with nothing else in either arm (the ops
    /// `If, Break|Continue, Else, EndIf`) becomes one `BreakIf` / `ContinueIf`. When
    /// the `if` sits directly in the loop body, the op also jumps to the loop end once
    /// no lane is left in the iteration.
    fn fold_conditional_jump(&mut self, at_if: usize, cond: u32) {
        if self.ops.len() != at_if + 4 {
            return;
        }
        let slot = match (
            &self.ops[at_if + 1],
            &self.ops[at_if + 2],
            &self.ops[at_if + 3],
        ) {
            (Op::Break { slot }, Op::Else { .. }, Op::EndIf { .. }) => (*slot, true),
            (Op::Continue { slot }, Op::Else { .. }, Op::EndIf { .. }) => (*slot, false),
            _ => return,
        };
        self.ops.truncate(at_if);
        let direct = self.loop_slots.last() == Some(&slot.0) && self.depth == slot.0 + 1;
        let end_pc = u32::MAX;
        self.ops.push(if slot.1 {
            Op::BreakIf {
                cond,
                slot: slot.0,
                end_pc,
            }
        } else {
            Op::ContinueIf {
                cond,
                slot: slot.0,
                end_pc,
            }
        });
        if direct {
            if let Some(exits) = self.loop_exits.last_mut() {
                exits.push(at_if);
            }
        }
    }

    fn enter(&mut self) -> Result<u32> {
        let slot = self.depth;
        self.depth += 1;
        if self.depth as usize > MAX_DEPTH {
            return unsupported(format!("control flow nested deeper than {MAX_DEPTH}"));
        }
        self.max_depth = self.max_depth.max(self.depth);
        Ok(slot)
    }

    fn block(&mut self, b: Block) -> Result<()> {
        let instrs = self.func.block_instrs(b);
        let mut jump = None;
        for i in instrs {
            match &self.func.instrs[i].kind {
                InstrKind::Phi(_) => {}
                InstrKind::Jump(k) => jump = Some(*k),
                _ => self.instr(i)?,
            }
        }
        self.phi_moves(b)?;
        match jump {
            None => {}
            Some(JumpKind::Break) => {
                let slot = *self
                    .loop_slots
                    .last()
                    .ok_or_else(|| Error::Unsupported("break outside a loop".into()))?;
                self.ops.push(Op::Break { slot });
            }
            Some(JumpKind::Continue) => {
                let slot = *self
                    .loop_slots
                    .last()
                    .ok_or_else(|| Error::Unsupported("continue outside a loop".into()))?;
                self.ops.push(Op::Continue { slot });
            }
            Some(JumpKind::Return | JumpKind::Halt) => self.ops.push(Op::Stop),
        }
        Ok(())
    }

    /// Moves into the phis of `b`'s successors, for the lanes leaving `b`.
    fn phi_moves(&mut self, b: Block) -> Result<()> {
        for s in self.func.compute_succs(b) {
            let mut moves: Vec<(Def, Def)> = Vec::new();
            let mut phis = Vec::new();
            for i in self.func.block_instrs(s) {
                let InstrKind::Phi(srcs) = &self.func.instrs[i].kind else {
                    break;
                };
                let d = self.def_of(i)?;
                phis.push(d);
                if let Some((_, src)) = srcs.iter().find(|(p, _)| *p == b) {
                    moves.push((d, *src));
                }
            }
            let parallel = moves.iter().any(|(_, src)| phis.contains(src));
            let mut staged = Vec::new();
            for &(d, src) in &moves {
                let (n, _) = self.shape(d);
                for c in 0..n {
                    let to = self.reg(d, c)?;
                    let from = self.reg(src, c.min(self.shape(src).0.saturating_sub(1)))?;
                    if to == from {
                        continue;
                    }
                    if parallel {
                        let t = self.alloc(1)?;
                        self.mov(t, from);
                        staged.push((to, t));
                    } else {
                        self.mov(to, from);
                    }
                }
            }
            for (to, t) in staged {
                self.mov(to, t);
            }
        }
        Ok(())
    }

    // ------------------------------------------------------------------ instructions

    fn instr(&mut self, i: Instr) -> Result<()> {
        let data = &self.func.instrs[i];
        match &data.kind {
            InstrKind::Alu(alu) => {
                let d = self.def_of(i)?;
                if self.fusable_fmul(i, alu, d) {
                    self.deferred.insert(d, alu.clone());
                    return Ok(());
                }
                if alu.op == rgl_nir::opcodes::Opcode::fadd && self.shape(d).1 == 32 {
                    for (k, other) in [(0usize, 1usize), (1, 0)] {
                        let Some(m) = self.deferred.get(&alu.srcs[k].def).cloned() else {
                            continue;
                        };
                        // Both sources deferred: the other one is emitted on its own.
                        let od = alu.srcs[other].def;
                        if let Some(m2) = self.deferred.remove(&od) {
                            let mut ops = std::mem::take(&mut self.ops);
                            let r = compile_alu(self.func, &m2, od, self, &mut ops);
                            self.ops = ops;
                            r?;
                        }
                        for c in 0..self.shape(d).0 {
                            let j = alu.srcs[k].swizzle[c as usize] as usize;
                            let a = self.reg(m.srcs[0].def, m.srcs[0].swizzle[j])?;
                            let b = self.reg(m.srcs[1].def, m.srcs[1].swizzle[j])?;
                            let o = &alu.srcs[other];
                            let cc = self.reg(o.def, o.swizzle[c as usize])?;
                            let dst = self.reg(d, c)?;
                            self.ops.push(Op::Tri {
                                f: super::program::Tri::FMulAdd,
                                d: dst,
                                a,
                                b,
                                c: cc,
                            });
                        }
                        return Ok(());
                    }
                }
                let mut ops = std::mem::take(&mut self.ops);
                let r = compile_alu(self.func, alu, d, self, &mut ops);
                self.ops = ops;
                r
            }
            InstrKind::LoadConst(vals) => {
                let d = self.def_of(i)?;
                let (n, bits) = self.shape(d);
                if bits != 1 && bits != 32 {
                    return unsupported(format!("{bits}-bit constants"));
                }
                for c in 0..n {
                    let r = self.reg(d, c)?;
                    let v = vals.get(c as usize).copied().unwrap_or(0) as u32;
                    self.consts.push((r, if bits == 1 { v & 1 } else { v }));
                }
                Ok(())
            }
            InstrKind::Undef => {
                let d = self.def_of(i)?;
                let (n, _) = self.shape(d);
                for c in 0..n {
                    let r = self.reg(d, c)?;
                    self.consts.push((r, 0));
                }
                Ok(())
            }
            InstrKind::Deref(deref) => {
                let d = self.def_of(i)?;
                self.deref(d, deref)
            }
            InstrKind::Intrinsic(intr) => self.intrinsic(i, intr),
            InstrKind::Tex(t) => {
                let d = self.def_of(i)?;
                let (n, _) = self.shape(d);
                let dest = (0..n.min(4))
                    .map(|c| self.reg(d, c))
                    .collect::<Result<Vec<_>>>()?;
                let fragment = self.stage == ShaderStage::Fragment;
                let op = compile_tex(self.func, t, dest, self, fragment)?;
                self.ops.push(Op::Tex(Box::new(op)));
                Ok(())
            }
            InstrKind::Phi(_) => unsupported("malformed NIR: phi after other instructions"),
            InstrKind::Jump(_) => unsupported("malformed NIR: jump inside a block"),
            InstrKind::Call { .. } => unsupported("function calls (functions must be inlined)"),
            InstrKind::ParallelCopy(entries) => {
                let mut staged = Vec::new();
                for &(d, s) in entries {
                    let (n, _) = self.shape(d);
                    for c in 0..n {
                        let t = self.alloc(1)?;
                        let from = self.reg(s, c)?;
                        self.mov(t, from);
                        staged.push((self.reg(d, c)?, t));
                    }
                }
                for (to, t) in staged {
                    self.mov(to, t);
                }
                Ok(())
            }
        }
    }

    fn deref(&mut self, d: Def, deref: &Deref) -> Result<()> {
        let structs = &self.shader.structs;
        let place = match &deref.kind {
            DerefKind::Var(v) => {
                let var = &self.shader.variables[*v];
                if !matches!(var.mode, VarMode::FunctionTemp | VarMode::ShaderTemp) {
                    return unsupported(format!(
                        "deref of a {} variable `{}` (IO, uniforms and samplers must be lowered)",
                        var.mode.deref_name(),
                        var.name
                    ));
                }
                let (base, size) = match self.local_of.get(v) {
                    Some(x) => *x,
                    None => {
                        let size = flat_size(&var.ty, structs, 0)
                            .filter(|s| *s <= u64::from(MAX_REGS))
                            .ok_or_else(|| {
                                Error::TooLarge(format!("local variable `{}`", var.name))
                            })? as u32;
                        let base = self.alloc(size)?;
                        let mut init = vec![0u32; size as usize];
                        if let Some(words) = &var.init {
                            for (w, v) in init.iter_mut().zip(words) {
                                *w = *v as u32;
                            }
                        }
                        self.locals.push((base, init));
                        self.local_of.insert(*v, (base, size));
                        (base, size)
                    }
                };
                Place {
                    base,
                    size,
                    off: None,
                    konst: 0,
                    ty: var.ty.clone(),
                    oob: false,
                }
            }
            DerefKind::Array { parent, index } => {
                let mut p = self.place(*parent)?;
                let (elem, len) = match &p.ty {
                    Type::Array(e, n) => ((**e).clone(), *n),
                    Type::Matrix { rows, columns } => {
                        (Type::Vector(BaseType::Float, *rows), u32::from(*columns))
                    }
                    Type::Vector(b, n) => (Type::Scalar(*b), u32::from(*n)),
                    t => return unsupported(format!("array deref of {t:?}")),
                };
                let stride = flat_size(&elem, structs, 0).unwrap_or(1) as u32;
                match self.konst(*index) {
                    Some(k) => {
                        if k < 0 || k >= i64::from(len) {
                            p.oob = true;
                        } else {
                            p.konst = p.konst.saturating_add(k as u32 * stride);
                        }
                    }
                    None => {
                        let r = self.alloc(1)?;
                        let idx = self.reg(*index, 0)?;
                        self.ops.push(Op::DerefIndex {
                            d: r,
                            parent: p.off,
                            idx,
                            stride,
                            len,
                        });
                        p.off = Some(r);
                    }
                }
                p.ty = elem;
                p
            }
            DerefKind::Struct { parent, field } => {
                let mut p = self.place(*parent)?;
                let Type::Struct(id) = &p.ty else {
                    return unsupported("struct deref of a non-struct");
                };
                let def = structs
                    .get(id.index())
                    .ok_or_else(|| Error::Unsupported("unknown struct".into()))?;
                let field = *field as usize;
                let mut off = 0u64;
                for (_, t) in def.fields.iter().take(field) {
                    off += flat_size(t, structs, 0).unwrap_or(0);
                }
                let ty = def
                    .fields
                    .get(field)
                    .map(|(_, t)| t.clone())
                    .ok_or_else(|| Error::Unsupported("struct field out of range".into()))?;
                p.konst = p.konst.saturating_add(off as u32);
                p.ty = ty;
                p
            }
            DerefKind::Cast { parent, .. } => {
                let mut p = self.place(*parent)?;
                p.ty = deref.ty.clone();
                p
            }
            DerefKind::ArrayWildcard { .. } => return unsupported("wildcard array deref"),
        };
        self.places.insert(d, place);
        Ok(())
    }

    fn place(&self, d: Def) -> Result<Place> {
        self.places
            .get(&d)
            .cloned()
            .ok_or_else(|| Error::Unsupported(format!("{d} is not a local-variable deref")))
    }

    fn src(intr: &Intrinsic, i: usize) -> Result<Def> {
        intr.srcs
            .get(i)
            .copied()
            .ok_or_else(|| Error::Unsupported(format!("malformed @{}: no source {i}", intr.op)))
    }

    fn intrinsic(&mut self, i: Instr, intr: &Intrinsic) -> Result<()> {
        use IntrinsicOp as I;
        let def = self.func.instrs[i].def;
        let io_loc = (index(intr, IndexKind::IoSemantics) & 0xffff) as i32;
        let component = index(intr, IndexKind::Component);
        let fragment = self.stage == ShaderStage::Fragment;
        match intr.op {
            I::load_input | I::load_interpolated_input => {
                let d = def.ok_or_else(|| Error::Unsupported("load without def".into()))?;
                let (n, bits) = self.shape(d);
                let off_src = Self::src(intr, if intr.op == I::load_input { 0 } else { 1 })?;
                let loc = self.in_location(intr, io_loc);
                if fragment
                    && matches!(
                        io_loc,
                        VARYING_SLOT_POS
                            | VARYING_SLOT_PNTC
                            | VARYING_SLOT_FACE
                            | VARYING_SLOT_PRIMITIVE_ID
                    )
                {
                    for c in 0..n {
                        let comp = component + u32::from(c);
                        let v = match io_loc {
                            VARYING_SLOT_POS => SysKind::FragCoord(comp.min(3) as u8),
                            VARYING_SLOT_PNTC if comp < 2 => SysKind::PointCoord(comp as u8),
                            VARYING_SLOT_FACE if comp == 0 => SysKind::FrontFace,
                            VARYING_SLOT_PRIMITIVE_ID if comp == 0 => SysKind::PrimitiveId,
                            _ => SysKind::Const(if comp == 3 { 1.0f32.to_bits() } else { 0 }),
                        };
                        self.sysval(d, c, v)?;
                    }
                    return Ok(());
                }
                for c in 0..n {
                    let r = self.reg(d, c)?;
                    let comp = component + u32::from(c);
                    match self.konst(off_src) {
                        Some(k) => match self.io.inputs.get(&(loc + k as i32)) {
                            Some(&idx) if comp < 4 => self.hoist(
                                Op::LoadInput {
                                    d: r,
                                    i: (idx * 4) as u32 + comp,
                                },
                                bits,
                            ),
                            _ => {
                                let z = self.zero()?;
                                self.mov(r, z)
                            }
                        },
                        None => {
                            let table = self.input_table(intr, loc);
                            let off = self.reg(off_src, 0)?;
                            self.ops.push(Op::LoadInputIndirect {
                                d: r,
                                off,
                                table,
                                comp: comp.min(255) as u8,
                            });
                        }
                    }
                    if bits == 1 {
                        self.ops.push(Op::Un {
                            f: Un::ToB1,
                            d: r,
                            a: r,
                        });
                    }
                }
                Ok(())
            }
            I::load_per_vertex_input => {
                let d = def.ok_or_else(|| Error::Unsupported("load without def".into()))?;
                let (n, _) = self.shape(d);
                let vertex = self.reg(Self::src(intr, 0)?, 0)?;
                let off_src = Self::src(intr, 1)?;
                let table = self.input_table(intr, io_loc);
                let off = match self.konst(off_src) {
                    Some(0) => None,
                    _ => Some(self.reg(off_src, 0)?),
                };
                for c in 0..n {
                    let r = self.reg(d, c)?;
                    self.ops.push(Op::LoadVertexInput {
                        d: r,
                        vertex,
                        table: table.clone(),
                        off,
                        comp: (component + u32::from(c)).min(255) as u8,
                        vertices: self.gs_vertices,
                    });
                }
                Ok(())
            }
            I::load_output => {
                let d = def.ok_or_else(|| Error::Unsupported("load without def".into()))?;
                let (n, _) = self.shape(d);
                let k = self
                    .konst(Self::src(intr, 0)?)
                    .ok_or_else(|| Error::Unsupported("indirect load_output".into()))?;
                for c in 0..n {
                    let r = self.reg(d, c)?;
                    let comp = component + u32::from(c);
                    match self.io.outputs.get(&(io_loc + k as i32)) {
                        Some(&o) if comp < 4 => self.ops.push(Op::LoadOutput {
                            d: r,
                            o: (o * 4) as u32 + comp,
                        }),
                        _ => {
                            let z = self.zero()?;
                            self.mov(r, z)
                        }
                    }
                }
                Ok(())
            }
            I::store_output => {
                let v = Self::src(intr, 0)?;
                let off_src = Self::src(intr, 1)?;
                let wrmask = index(intr, IndexKind::WriteMask);
                let (n, _) = self.shape(v);
                for c in 0..n {
                    if wrmask & (1 << c) == 0 {
                        continue;
                    }
                    let a = self.reg(v, c)?;
                    let comp = component + u32::from(c);
                    if comp >= 4 {
                        continue;
                    }
                    match self.konst(off_src) {
                        Some(k) => {
                            if let Some(&o) = self.io.outputs.get(&(io_loc + k as i32)) {
                                self.ops.push(Op::StoreOutput {
                                    o: (o * 4) as u32 + comp,
                                    a,
                                });
                            }
                        }
                        None => {
                            let slots = (index(intr, IndexKind::IoSemantics) >> 16).max(1);
                            let table = (0..slots as i32)
                                .map(|s| {
                                    self.io.outputs.get(&(io_loc + s)).map_or(-1, |&o| o as i32)
                                })
                                .collect();
                            let off = self.reg(off_src, 0)?;
                            self.ops.push(Op::StoreOutputIndirect {
                                a,
                                off,
                                table,
                                comp: comp as u8,
                            });
                        }
                    }
                }
                Ok(())
            }
            I::load_barycentric_pixel
            | I::load_barycentric_centroid
            | I::load_barycentric_sample
            | I::load_barycentric_at_offset => {
                let d = def.ok_or_else(|| Error::Unsupported("load without def".into()))?;
                let (n, _) = self.shape(d);
                let z = self.zero()?;
                for c in 0..n {
                    let r = self.reg(d, c)?;
                    self.mov(r, z);
                }
                Ok(())
            }
            I::load_uniform => {
                let d = def.ok_or_else(|| Error::Unsupported("load without def".into()))?;
                let (n, bits) = self.shape(d);
                let base = index(intr, IndexKind::Base);
                let off_src = Self::src(intr, 0)?;
                for c in 0..n {
                    let r = self.reg(d, c)?;
                    match self.konst(off_src) {
                        Some(k) => {
                            let slot = i64::from(base) + k;
                            match u32::try_from(slot) {
                                Ok(slot) => self.hoist(
                                    Op::LoadUniform {
                                        d: r,
                                        slot,
                                        comp: c,
                                    },
                                    bits,
                                ),
                                Err(_) => {
                                    let z = self.zero()?;
                                    self.mov(r, z)
                                }
                            }
                        }
                        None => {
                            let off = self.reg(off_src, 0)?;
                            self.ops.push(Op::LoadUniformIndirect {
                                d: r,
                                base,
                                off,
                                comp: c,
                            });
                        }
                    }
                    if bits == 1 {
                        self.ops.push(Op::Un {
                            f: Un::ToB1,
                            d: r,
                            a: r,
                        });
                    }
                }
                Ok(())
            }
            I::load_ubo => {
                let d = def.ok_or_else(|| Error::Unsupported("load without def".into()))?;
                let (n, bits) = self.shape(d);
                if bits != 32 {
                    return unsupported(format!("{bits}-bit load_ubo"));
                }
                let block = self.reg(Self::src(intr, 0)?, 0)?;
                let off = self.reg(Self::src(intr, 1)?, 0)?;
                for c in 0..n {
                    let r = self.reg(d, c)?;
                    self.ops.push(Op::LoadUbo {
                        d: r,
                        block,
                        off,
                        comp: c,
                    });
                }
                Ok(())
            }
            I::load_front_face => self.sys1(def, SysKind::FrontFace),
            I::load_frag_coord => {
                let d = def.ok_or_else(|| Error::Unsupported("load without def".into()))?;
                for c in 0..self.shape(d).0.min(4) {
                    self.sysval(d, c, SysKind::FragCoord(c))?;
                }
                Ok(())
            }
            I::load_point_coord => {
                let d = def.ok_or_else(|| Error::Unsupported("load without def".into()))?;
                for c in 0..self.shape(d).0.min(2) {
                    self.sysval(d, c, SysKind::PointCoord(c))?;
                }
                Ok(())
            }
            I::load_vertex_id => self.sys1(def, SysKind::VertexId),
            I::load_instance_id => self.sys1(def, SysKind::InstanceId),
            I::load_primitive_id => self.sys1(def, SysKind::PrimitiveId),
            I::load_helper_invocation => self.sys1(def, SysKind::Helper),
            I::load_invocation_id | I::load_sample_id | I::load_layer_id => {
                self.sys1(def, SysKind::Const(0))
            }
            I::load_sample_mask_in => self.sys1(def, SysKind::Const(1)),
            I::load_sample_pos => {
                let d = def.ok_or_else(|| Error::Unsupported("load without def".into()))?;
                for c in 0..self.shape(d).0 {
                    self.sysval(d, c, SysKind::Const(0.5f32.to_bits()))?;
                }
                Ok(())
            }
            I::ddx | I::ddy | I::ddx_fine | I::ddx_coarse | I::ddy_fine | I::ddy_coarse => {
                let d = def.ok_or_else(|| Error::Unsupported("load without def".into()))?;
                let a = Self::src(intr, 0)?;
                let is_x = matches!(intr.op, I::ddx | I::ddx_fine | I::ddx_coarse);
                for c in 0..self.shape(d).0 {
                    let r = self.reg(d, c)?;
                    let s = self.reg(a, c)?;
                    if !fragment {
                        let z = self.zero()?;
                        self.mov(r, z);
                    } else if is_x {
                        self.ops.push(Op::Ddx { d: r, a: s });
                    } else {
                        self.ops.push(Op::Ddy { d: r, a: s });
                    }
                }
                Ok(())
            }
            I::discard
            | I::terminate
            | I::demote
            | I::discard_if
            | I::terminate_if
            | I::demote_if => {
                if !fragment {
                    return unsupported(format!("@{} outside a fragment shader", intr.op));
                }
                let cond = match intr.op {
                    I::discard_if | I::terminate_if | I::demote_if => {
                        Some(self.reg(Self::src(intr, 0)?, 0)?)
                    }
                    _ => None,
                };
                self.uses_discard = true;
                self.ops.push(Op::Kill { cond });
                Ok(())
            }
            I::emit_vertex | I::end_primitive => {
                if self.stage != ShaderStage::Geometry {
                    return unsupported(format!("@{} outside a geometry shader", intr.op));
                }
                if index(intr, IndexKind::StreamId) != 0 {
                    return unsupported("geometry shader streams other than 0");
                }
                self.ops.push(if intr.op == I::emit_vertex {
                    Op::Emit
                } else {
                    Op::EndPrim
                });
                Ok(())
            }
            I::barrier => Ok(()),
            I::load_deref => {
                let d = def.ok_or_else(|| Error::Unsupported("load without def".into()))?;
                let p = self.place(Self::src(intr, 0)?)?;
                let (n, bits) = self.shape(d);
                for c in 0..n {
                    let r = self.reg(d, c)?;
                    if p.oob {
                        let z = self.zero()?;
                        self.mov(r, z);
                    } else {
                        self.ops.push(Op::LoadLocal {
                            d: r,
                            base: p.base,
                            size: p.size,
                            off: p.off,
                            k: p.konst.saturating_add(u32::from(c)),
                            bool1: bits == 1,
                        });
                    }
                }
                Ok(())
            }
            I::store_deref => {
                let p = self.place(Self::src(intr, 0)?)?;
                let v = Self::src(intr, 1)?;
                let wrmask = index(intr, IndexKind::WriteMask);
                if p.oob {
                    return Ok(());
                }
                for c in 0..self.shape(v).0 {
                    if wrmask & (1 << c) == 0 {
                        continue;
                    }
                    let a = self.reg(v, c)?;
                    self.ops.push(Op::StoreLocal {
                        a,
                        base: p.base,
                        size: p.size,
                        off: p.off,
                        k: p.konst.saturating_add(u32::from(c)),
                    });
                }
                Ok(())
            }
            op => unsupported(format!("intrinsic @{op}")),
        }
    }

    fn sys1(&mut self, def: Option<Def>, v: SysKind) -> Result<()> {
        let d = def.ok_or_else(|| Error::Unsupported("load without def".into()))?;
        for c in 0..self.shape(d).0 {
            self.sysval(d, c, v)?;
        }
        Ok(())
    }

    fn sysval(&mut self, d: Def, c: u8, v: SysKind) -> Result<()> {
        self.sysvals |= match v {
            SysKind::FragCoord(_) => sysval::FRAG_COORD,
            SysKind::FrontFace => sysval::FRONT_FACE,
            SysKind::PointCoord(_) => sysval::POINT_COORD,
            SysKind::VertexId => sysval::VERTEX_ID,
            SysKind::InstanceId => sysval::INSTANCE_ID,
            SysKind::PrimitiveId => sysval::PRIMITIVE_ID,
            SysKind::Helper | SysKind::Const(_) => 0,
        };
        let r = self.reg(d, c)?;
        let bits = self.shape(d).1;
        self.hoist(Op::SysVal { d: r, v }, bits);
        Ok(())
    }

    fn in_location(&self, intr: &Intrinsic, io_loc: i32) -> i32 {
        if self.stage == ShaderStage::Vertex {
            index(intr, IndexKind::Base) as i32
        } else {
            io_loc
        }
    }

    /// Input index of each slot an indirectly addressed input covers (-1: none).
    fn input_table(&self, intr: &Intrinsic, loc: i32) -> Vec<i32> {
        let slots = if self.stage == ShaderStage::Vertex {
            index(intr, IndexKind::Range)
        } else {
            index(intr, IndexKind::IoSemantics) >> 16
        }
        .clamp(1, 4096);
        (0..slots as i32)
            .map(|s| self.io.inputs.get(&(loc + s)).map_or(-1, |&i| i as i32))
            .collect()
    }
}

/// Merges runs of up to 4 consecutive `Un` / `Bin` / `Tri` ops with the same
/// function into one `UnN` / `BinN` / `TriN` (one dispatch; the parts still run in
/// order, so the meaning is unchanged). A run never swallows a jump target except at
/// its start; jump targets are renumbered.
fn group_ops(ops: Vec<Op>) -> Vec<Op> {
    let mut targets = vec![false; ops.len() + 1];
    for op in &ops {
        let t = match op {
            Op::If { else_pc, .. } => *else_pc,
            Op::Else { end_pc, .. } => *end_pc,
            Op::Loop { exit_pc, .. } => *exit_pc,
            Op::EndLoop { body_pc, .. } => *body_pc,
            Op::BreakIf { end_pc, .. } | Op::ContinueIf { end_pc, .. } => *end_pc,
            _ => continue,
        };
        if let Some(x) = targets.get_mut(t as usize) {
            *x = true;
        }
    }
    let key = |op: &Op| match op {
        Op::Un { f, .. } => Some((0u8, *f as u8)),
        Op::Bin { f, .. } => Some((1, *f as u8)),
        Op::Tri { f, .. } => Some((2, *f as u8)),
        _ => None,
    };
    let mut map = vec![0u32; ops.len() + 1];
    let mut out: Vec<Op> = Vec::with_capacity(ops.len());
    let mut i = 0;
    while i < ops.len() {
        let k = key(&ops[i]);
        let mut j = i + 1;
        if k.is_some() {
            while j < ops.len() && j - i < 4 && !targets[j] && key(&ops[j]) == k {
                j += 1;
            }
        }
        for m in map.iter_mut().take(j).skip(i) {
            *m = out.len() as u32;
        }
        if j - i == 1 {
            out.push(ops[i].clone());
        } else {
            let n = (j - i) as u8;
            let mut d = [0u32; 4];
            let mut a = [0u32; 4];
            let mut b = [0u32; 4];
            let mut c = [0u32; 4];
            let mut fun = None;
            for (x, op) in ops[i..j].iter().enumerate() {
                match op {
                    Op::Un { f, d: dd, a: aa } => {
                        (d[x], a[x]) = (*dd, *aa);
                        fun = Some((Some(*f), None, None));
                    }
                    Op::Bin {
                        f,
                        d: dd,
                        a: aa,
                        b: bb,
                    } => {
                        (d[x], a[x], b[x]) = (*dd, *aa, *bb);
                        fun = Some((None, Some(*f), None));
                    }
                    Op::Tri {
                        f,
                        d: dd,
                        a: aa,
                        b: bb,
                        c: cc,
                    } => {
                        (d[x], a[x], b[x], c[x]) = (*dd, *aa, *bb, *cc);
                        fun = Some((None, None, Some(*f)));
                    }
                    _ => {}
                }
            }
            match fun {
                Some((Some(f), _, _)) => out.push(Op::UnN { f, n, d, a }),
                Some((_, Some(f), _)) => out.push(Op::BinN { f, n, d, a, b }),
                Some((_, _, Some(f))) => out.push(Op::TriN { f, n, d, a, b, c }),
                // Runs only hold Un, Bin or Tri ops (see `key`).
                _ => out.extend(ops[i..j].iter().cloned()),
            }
        }
        i = j;
    }
    map[ops.len()] = out.len() as u32;
    let fix = |t: &mut u32| {
        if let Some(v) = map.get(*t as usize) {
            *t = *v;
        }
    };
    for op in out.iter_mut() {
        match op {
            Op::If { else_pc, .. } => fix(else_pc),
            Op::Else { end_pc, .. } => fix(end_pc),
            Op::Loop { exit_pc, .. } => fix(exit_pc),
            Op::EndLoop { body_pc, .. } => fix(body_pc),
            Op::BreakIf { end_pc, .. } | Op::ContinueIf { end_pc, .. } if *end_pc != u32::MAX => {
                fix(end_pc)
            }
            _ => {}
        }
    }
    out
}

/// Walks every intrinsic of the entry point to find the IO declarations.
fn collect_io(
    shader: &Shader,
    func: &FunctionImpl,
    stage: ShaderStage,
) -> (Vec<IoDecl>, Vec<IoDecl>) {
    let mut ins: BTreeMap<i32, IoDecl> = BTreeMap::new();
    let mut outs: BTreeMap<i32, IoDecl> = BTreeMap::new();
    let fragment = stage == ShaderStage::Fragment;
    let _ = shader;
    let add =
        |map: &mut BTreeMap<i32, IoDecl>, loc: i32, slots: u32, comps: u32, interp: Interp| {
            for s in 0..slots.clamp(1, 4096) as i32 {
                let e = map.entry(loc + s).or_insert(IoDecl {
                    location: loc + s,
                    components: 0,
                    interp,
                    index: 0,
                });
                e.components = e.components.max(comps.min(4) as u8);
            }
        };
    for b in func.blocks_in_order() {
        for i in func.block_instrs(b) {
            let data = &func.instrs[i];
            let InstrKind::Intrinsic(intr) = &data.kind else {
                continue;
            };
            let io_loc = (index(intr, IndexKind::IoSemantics) & 0xffff) as i32;
            let io_slots = index(intr, IndexKind::IoSemantics) >> 16;
            let comp = index(intr, IndexKind::Component);
            let ncomp = data
                .def
                .map(|d| u32::from(func.defs[d].num_components))
                .unwrap_or(0);
            match intr.op {
                IntrinsicOp::load_input | IntrinsicOp::load_interpolated_input => {
                    if fragment
                        && matches!(
                            io_loc,
                            VARYING_SLOT_POS
                                | VARYING_SLOT_PNTC
                                | VARYING_SLOT_FACE
                                | VARYING_SLOT_PRIMITIVE_ID
                        )
                    {
                        continue;
                    }
                    let (loc, slots) = if stage == ShaderStage::Vertex {
                        (
                            index(intr, IndexKind::Base) as i32,
                            index(intr, IndexKind::Range),
                        )
                    } else {
                        (io_loc, io_slots)
                    };
                    let interp = if intr.op == IntrinsicOp::load_input {
                        if fragment {
                            Interp::Flat
                        } else {
                            Interp::Smooth
                        }
                    } else {
                        bary_interp(func, intr.srcs.first().copied())
                    };
                    add(&mut ins, loc, slots, comp + ncomp, interp);
                }
                IntrinsicOp::load_per_vertex_input => {
                    add(&mut ins, io_loc, io_slots, comp + ncomp, Interp::Smooth)
                }
                IntrinsicOp::store_output => {
                    let n = intr
                        .srcs
                        .first()
                        .map(|d| u32::from(func.defs[*d].num_components))
                        .unwrap_or(0);
                    let wr = index(intr, IndexKind::WriteMask);
                    let top = (0..n)
                        .filter(|c| wr & (1 << c) != 0)
                        .max()
                        .map_or(0, |c| c + 1);
                    add(&mut outs, io_loc, io_slots, comp + top, Interp::Smooth)
                }
                IntrinsicOp::load_output => {
                    add(&mut outs, io_loc, io_slots, comp + ncomp, Interp::Smooth)
                }
                _ => {}
            }
        }
    }
    (ins.into_values().collect(), outs.into_values().collect())
}

fn bary_interp(func: &FunctionImpl, bary: Option<Def>) -> Interp {
    let Some(d) = bary else {
        return Interp::Smooth;
    };
    let Some(instr) = func.defs.get(d).map(|x| x.instr) else {
        return Interp::Smooth;
    };
    match &func.instrs[instr].kind {
        InstrKind::Intrinsic(b) => match index(b, IndexKind::InterpMode) {
            2 => Interp::Flat,
            3 => Interp::NoPerspective,
            _ => Interp::Smooth,
        },
        _ => Interp::Smooth,
    }
}

/// Compiles a finalized shader: its interface and program.
pub(crate) fn compile(shader: &Shader) -> Result<(ShaderInfo, Program)> {
    let stage = match shader.stage {
        Stage::Vertex => ShaderStage::Vertex,
        Stage::Geometry => ShaderStage::Geometry,
        Stage::Fragment => ShaderStage::Fragment,
        s => return unsupported(format!("{} shaders", s.name())),
    };
    let func = shader
        .functions
        .iter()
        .find(|(_, f)| f.is_entrypoint)
        .or_else(|| shader.functions.iter().find(|(_, f)| f.name == "main"))
        .and_then(|(_, f)| f.body.as_ref())
        .ok_or_else(|| Error::InvalidArgument("shader has no entry point".into()))?;
    let gs = if stage == ShaderStage::Geometry {
        let g = shader.info.gs.unwrap_or_default();
        if g.invocations > 1 {
            return unsupported("geometry shader invocations > 1");
        }
        let output = match g.output_primitive {
            Primitive::Points => GsOutput::Points,
            Primitive::LineStrip => GsOutput::LineStrip,
            Primitive::TriangleStrip => GsOutput::TriangleStrip,
            p => return unsupported(format!("geometry output primitive {}", p.name())),
        };
        Some(ExecGs {
            vertices_in: g.input_primitive.vertex_count().min(6) as u8,
            output,
            max_vertices: g.vertices_out,
        })
    } else {
        None
    };
    let (inputs, outputs) = collect_io(shader, func, stage);
    let io = Io {
        inputs: inputs
            .iter()
            .enumerate()
            .map(|(i, d)| (d.location, i))
            .collect(),
        outputs: outputs
            .iter()
            .enumerate()
            .map(|(i, d)| (d.location, i))
            .collect(),
    };
    let mut c = Compiler {
        shader,
        func,
        stage,
        regs: Vec::new(),
        next: 0,
        consts: Vec::new(),
        zero: None,
        locals: Vec::new(),
        local_of: BTreeMap::new(),
        places: BTreeMap::new(),
        ops: Vec::new(),
        prologue: Vec::new(),
        uses: {
            let u = func.build_uses();
            (0..func.defs.len())
                .map(|i| {
                    u.get(Def::new(i))
                        .iter()
                        .filter_map(|x| x.instr())
                        .collect()
                })
                .collect()
        },
        deferred: BTreeMap::new(),
        io,
        depth: 0,
        max_depth: 0,
        loop_slots: Vec::new(),
        loop_exits: Vec::new(),
        sysvals: 0,
        uses_discard: false,
        gs_vertices: gs.map_or(0, |g| u32::from(g.vertices_in)),
    };
    c.list(func.body)?;
    let info = ShaderInfo {
        stage,
        inputs,
        outputs,
        sysvals: c.sysvals,
        uses_discard: c.uses_discard,
        gs,
    };
    // The prologue goes first; jump targets move by its length.
    let shift = c.prologue.len() as u32;
    let mut ops = std::mem::take(&mut c.prologue);
    for mut op in std::mem::take(&mut c.ops) {
        match &mut op {
            Op::If { else_pc, .. } => *else_pc += shift,
            Op::Else { end_pc, .. } => *end_pc += shift,
            Op::Loop { exit_pc, .. } => *exit_pc += shift,
            Op::EndLoop { body_pc, .. } => *body_pc += shift,
            Op::BreakIf { end_pc, .. } | Op::ContinueIf { end_pc, .. } if *end_pc != u32::MAX => {
                *end_pc += shift
            }
            _ => {}
        }
        ops.push(op);
    }
    let ops = group_ops(ops);
    let program = Program {
        ops,
        nregs: c.next,
        consts: c.consts,
        locals: c.locals,
        fragment: stage == ShaderStage::Fragment,
    };
    Ok((info, program))
}
