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
//!
//! Files: this one holds the compiler state, registers, control flow, blocks and
//! phis; [`intrinsics`] the intrinsics (IO, uniforms, derefs, system values, GS
//! emission); [`io`] the shader interface; [`group`] the final op-merging peephole.
//! ALU and texture instructions are in the sibling modules `alu` and `tex`.

use std::collections::BTreeMap;

use rgl_nir::arena::EntityRef;
use rgl_nir::intrinsics::IndexKind;
use rgl_nir::ir::*;

mod group;
mod image;
mod intrinsics;
mod io;
mod storage;

use group::group_ops;
use io::collect_io;

use crate::driver::ShaderStage;
use crate::exec::{GsInfo as ExecGs, GsOutput, ShaderInfo, StorageUse};
use crate::lanes::alu::{compile_alu, RegMap};
use crate::lanes::program::{Op, Program, Un, MAX_DEPTH};
use crate::lanes::tex::compile_tex;
use crate::{Error, Result};

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
    /// A compute shader (compiled with `stage` [`ShaderStage::Vertex`]: no IO,
    /// no quads), whose compute intrinsics are allowed.
    compute: bool,
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
    storage: StorageUse,
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
}

/// Compiles a finalized shader: its interface and program.
pub(crate) fn compile(shader: &Shader) -> Result<(ShaderInfo, Program)> {
    // A compute shader runs as a vertex-like stage: independent lanes with no
    // inputs, outputs or quads, plus the compute intrinsics (`crate::compute`
    // runs it, never a draw).
    let compute = shader.stage == Stage::Compute;
    let stage = if compute {
        ShaderStage::Vertex
    } else {
        ShaderStage::try_from(shader.stage)?
    };
    let func = shader
        .functions
        .iter()
        .find(|(_, f)| f.is_entrypoint)
        .or_else(|| shader.functions.iter().find(|(_, f)| f.name == "main"))
        .and_then(|(_, f)| f.body.as_ref())
        .ok_or_else(|| Error::InvalidArgument("shader has no entry point".into()))?;
    let mut gs_invocations = 1;
    let gs = if stage == ShaderStage::Geometry {
        let g = shader.info.gs.unwrap_or_default();
        gs_invocations = g.invocations.max(1);
        let output = match g.output_primitive {
            Primitive::Points => GsOutput::Points,
            Primitive::LineStrip => GsOutput::LineStrip,
            Primitive::TriangleStrip => GsOutput::TriangleStrip,
            p => return unsupported(format!("geometry output primitive {}", p.name())),
        };
        Some(ExecGs {
            vertices_in: g.input_primitive.vertex_count().min(6) as u8,
            output,
            // Each of the `invocations` runs of a primitive may emit up to
            // `max_vertices` vertices (GLSL 4.00 §4.4.2.1); the driver's
            // per-primitive budget covers all of them.
            max_vertices: g.vertices_out.saturating_mul(gs_invocations),
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
        compute,
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
        storage: StorageUse::default(),
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
        storage: c.storage,
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
        gs_invocations,
    };
    Ok((info, program))
}
