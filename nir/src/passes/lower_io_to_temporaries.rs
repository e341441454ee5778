//! `lower_io_to_temporaries` (Mesa's `nir_lower_io_to_temporaries`): shader outputs
//! (and, when asked, inputs) are accessed through a `shader_temp` shadow copy, so
//! later passes see each output written exactly once.
//!
//! * Every deref of an output, in every function, is retargeted to its shadow
//!   (`<name>_out_temp`, same type; the output's initializer moves to it).
//! * Outside geometry shaders the entry point copies every shadow to its output
//!   (`copy_deref`) at its end: before each `return`/`halt` that leaves it and at the
//!   end of the body. In a geometry shader the copies go before every `emit_vertex`
//!   instead (outputs are undefined after an emit, so nothing is copied at the end).
//! * Inputs (off in the registered pass): shadows `<name>_in_temp` filled from the
//!   inputs at the start of the entry point.
//!
//! Variables already accessed that way (see `already_lowered`: outputs only written
//! right before leaving the entry point or right before an emit, inputs only read
//! at the start) are skipped, so the pass is idempotent.
//!
//! Copies of aggregates are left to `split_var_copies`/`lower_var_copies`; the shadows
//! are globals, so `lower_global_vars_to_local` then `lower_vars_to_ssa` turn them
//! into SSA values.

use super::var_util::*;
use super::{Pass, PassFailure};
use crate::builder::{Builder, Cursor};
use crate::intrinsics::IntrinsicOp;
use crate::ir::*;
use rustc_hash::FxHashMap as HashMap;

/// The pass: which of outputs and inputs go through temporaries.
#[derive(Copy, Clone, Debug)]
pub struct LowerIoToTemporaries {
    /// Shadow the outputs.
    pub outputs: bool,
    /// Shadow the inputs.
    pub inputs: bool,
}

impl LowerIoToTemporaries {
    /// The registered pass: outputs only.
    pub const OUTPUTS: LowerIoToTemporaries = LowerIoToTemporaries {
        outputs: true,
        inputs: false,
    };
}

impl Pass for LowerIoToTemporaries {
    fn name(&self) -> &'static str {
        "lower_io_to_temporaries"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        let Some(entry) = shader
            .functions
            .iter()
            .find(|(_, f)| f.is_entrypoint && f.body.is_some())
            .map(|(id, _)| id)
        else {
            return Ok(false);
        };
        let io: Vec<VarId> = shader
            .globals
            .iter()
            .copied()
            .filter(|v| {
                shader.variables.get(*v).is_some_and(|d| {
                    (self.outputs && d.mode == VarMode::ShaderOut)
                        || (self.inputs && d.mode == VarMode::ShaderIn)
                })
            })
            .collect();
        // One walk of every body for all the variables (was one per variable).
        let accesses = gather_accesses(shader);
        let io: Vec<VarId> = io
            .into_iter()
            .filter(|v| !already_lowered(shader, &accesses, *v))
            .collect();
        if io.is_empty() {
            return Ok(false);
        }
        // Shadows.
        let mut shadow: HashMap<VarId, VarId> = HashMap::default();
        let mut pairs: Vec<(VarId, VarId, bool)> = Vec::new();
        for &v in &io {
            let data = shader.variables[v].clone();
            let is_out = data.mode == VarMode::ShaderOut;
            let suffix = if is_out { "out_temp" } else { "in_temp" };
            let name = unique_global_name(shader, &format!("{}_{suffix}", data.name));
            let mut t = Variable::new(&name, VarMode::ShaderTemp, data.ty.clone());
            t.init = data.init.clone();
            shader.variables[v].init = None;
            let tv = shader.add_global(t);
            shadow.insert(v, tv);
            pairs.push((v, tv, is_out));
        }
        // Retarget every access.
        for_each_impl_mut(shader, |_, _, func| {
            let mut changed = false;
            for i in all_instrs(func) {
                if let InstrKind::Deref(dr) = &mut func.instrs[i].kind {
                    if let DerefKind::Var(v) = &mut dr.kind {
                        if let Some(t) = shadow.get(v) {
                            *v = *t;
                            dr.mode = VarMode::ShaderTemp;
                            changed = true;
                        }
                    }
                }
            }
            if changed {
                for i in all_instrs(func) {
                    let Some(d) = func.instrs[i].def else {
                        continue;
                    };
                    let Some(root) = root_var(func, d) else {
                        continue;
                    };
                    if shadow.values().any(|t| *t == root) {
                        if let InstrKind::Deref(dr) = &mut func.instrs[i].kind {
                            dr.mode = VarMode::ShaderTemp;
                        }
                    }
                }
            }
            changed
        });
        let geometry = shader.stage == Stage::Geometry;
        let types: HashMap<VarId, (Type, VarMode)> = pairs
            .iter()
            .map(|(v, _, _)| {
                let d = &shader.variables[*v];
                (*v, (d.ty.clone(), d.mode))
            })
            .collect();
        let copy = |func: &mut FunctionImpl, at: Cursor, io: VarId, temp: VarId, out: bool| {
            let (ty, mode) = types[&io].clone();
            let mut b = Builder::new(func, at);
            let i = b.deref_var(io, mode, ty.clone());
            let t = b.deref_var(temp, VarMode::ShaderTemp, ty);
            let (dst, src) = if out { (i, t) } else { (t, i) };
            b.intrinsic(IntrinsicOp::copy_deref, vec![dst, src], 0, vec![0, 0], None);
            b.cursor
        };
        // Output copies.
        let outs: Vec<(VarId, VarId)> = pairs.iter().filter(|p| p.2).map(|p| (p.0, p.1)).collect();
        if !outs.is_empty() {
            if geometry {
                for_each_impl_mut(shader, |_, _, func| {
                    for i in all_instrs(func) {
                        if intrinsic(func, i).is_some_and(|x| x.op == IntrinsicOp::emit_vertex) {
                            let mut at = Cursor::Before(i);
                            for &(v, t) in &outs {
                                at = copy(func, at, v, t, true);
                            }
                        }
                    }
                    true
                });
            } else if let Some(mut body) = shader.functions[entry].body.take() {
                let end = body.end_block;
                for p in body.blocks[end].preds.clone() {
                    let mut at = match body.blocks[p].last {
                        Some(j) if matches!(body.instrs[j].kind, InstrKind::Jump(_)) => {
                            Cursor::Before(j)
                        }
                        _ => Cursor::EndOf(p),
                    };
                    for &(v, t) in &outs {
                        at = copy(&mut body, at, v, t, true);
                    }
                }
                shader.functions[entry].body = Some(body);
            }
        }
        // Input copies at the start of the entry point.
        let ins: Vec<(VarId, VarId)> = pairs.iter().filter(|p| !p.2).map(|p| (p.0, p.1)).collect();
        if !ins.is_empty() {
            if let Some(mut body) = shader.functions[entry].body.take() {
                if let Some(first) = body.body.first.and_then(|n| body.cf_block(n)) {
                    let mut at = Builder::after_phis(&body, first);
                    for &(v, t) in &ins {
                        at = copy(&mut body, at, v, t, false);
                    }
                }
                shader.functions[entry].body = Some(body);
            }
        }
        Ok(true)
    }
}

/// True when `var` is already accessed the way this pass leaves it, so the pass
/// skips it (which keeps it idempotent, also after `lower_var_copies` turned the
/// copies it added into loads and stores):
/// * an output is never read, and every write of it sits in a block that leaves the
///   entry point (a predecessor of its end block) with no other write of an
///   overlapping part of it in that block, or, in a geometry shader, is followed in
///   its block by an `emit_vertex` before any overlapping write;
/// * an input is only read in the first block of the entry point.
///
/// A variable nothing accesses qualifies too (a shadow would only copy undefined
/// values).
/// Per function body: its use lists and, per root variable, the derefs of that
/// variable in program order.
type Accesses = Vec<(FuncId, Uses, HashMap<VarId, Vec<Instr>>)>;

fn gather_accesses(shader: &Shader) -> Accesses {
    let mut out = Vec::new();
    for (id, f) in shader.functions.iter() {
        let Some(func) = &f.body else { continue };
        let mut derefs: HashMap<VarId, Vec<Instr>> = HashMap::default();
        for i in all_instrs(func) {
            let Some(d) = func.instrs[i].def else {
                continue;
            };
            if !matches!(func.instrs[i].kind, InstrKind::Deref(_)) {
                continue;
            }
            if let Some(v) = root_var(func, d) {
                derefs.entry(v).or_default().push(i);
            }
        }
        out.push((id, func.build_uses(), derefs));
    }
    out
}

fn already_lowered(shader: &Shader, accesses: &Accesses, var: VarId) -> bool {
    let is_out = shader
        .variables
        .get(var)
        .is_some_and(|v| v.mode == VarMode::ShaderOut);
    let geometry = shader.stage == Stage::Geometry;
    for (id, uses, derefs) in accesses {
        let f = &shader.functions[*id];
        let Some(func) = &f.body else { continue };
        let first_block = func.body.first.and_then(|n| func.cf_block(n));
        let end_preds = &func.blocks[func.end_block].preds;
        for &i in derefs.get(&var).map_or(&[][..], |v| v.as_slice()) {
            let Some(d) = func.instrs[i].def else {
                continue;
            };
            for &user in &uses[d] {
                // A deref (a pointer) is never an if condition; were it one, the
                // variable would not be a plain output/input access.
                let Use::Instr(u) = user else {
                    return false;
                };
                let Some(x) = intrinsic(func, u) else {
                    if matches!(func.instrs[u].kind, InstrKind::Deref(_)) {
                        continue; // a longer chain; its own uses are checked
                    }
                    return false;
                };
                let write = matches!(x.op, IntrinsicOp::store_deref | IntrinsicOp::copy_deref)
                    && x.srcs.first() == Some(&d)
                    && x.srcs.get(1) != Some(&d);
                let read = matches!(x.op, IntrinsicOp::load_deref)
                    || (x.op == IntrinsicOp::copy_deref && x.srcs.get(1) == Some(&d));
                let block = func.instr_block(u);
                let ok = if is_out {
                    write
                        && if geometry {
                            emit_follows(func, u, var)
                        } else {
                            f.is_entrypoint
                                && block.is_some_and(|b| end_preds.contains(&b))
                                && !overlapping_write_in_block(func, u, var)
                        }
                } else {
                    read && f.is_entrypoint && block.is_some() && block == first_block
                };
                if !ok {
                    return false;
                }
            }
        }
    }
    true
}

/// The written path of a store/copy `instr` (`None` when it cannot be resolved).
fn written_path(func: &FunctionImpl, instr: Instr) -> Option<DerefPath> {
    let x = intrinsic(func, instr)?;
    if !matches!(x.op, IntrinsicOp::store_deref | IntrinsicOp::copy_deref) {
        return None;
    }
    deref_path(func, *x.srcs.first()?)
}

/// True when two paths into one variable may address overlapping storage.
fn overlap(a: &[PathElem], b: &[PathElem]) -> bool {
    a.iter().zip(b).all(|(x, y)| match (x, y) {
        (PathElem::Index(i), PathElem::Index(j)) => i == j,
        (PathElem::Field(i), PathElem::Field(j)) => i == j,
        _ => true,
    })
}

/// True when `instr` writes `var` at a path overlapping `path` (or an unknown path).
fn writes_overlapping(func: &FunctionImpl, instr: Instr, var: VarId, path: &[PathElem]) -> bool {
    let Some(x) = intrinsic(func, instr) else {
        return false;
    };
    if !matches!(x.op, IntrinsicOp::store_deref | IntrinsicOp::copy_deref) {
        return false;
    }
    let Some(&dst) = x.srcs.first() else {
        return false;
    };
    if root_var(func, dst) != Some(var) {
        return false;
    }
    deref_path(func, dst).is_none_or(|p| overlap(&p.elems, path))
}

/// True when another write in the block of `write` overlaps it.
fn overlapping_write_in_block(func: &FunctionImpl, write: Instr, var: VarId) -> bool {
    let Some(path) = written_path(func, write) else {
        return true;
    };
    let Some(block) = func.instr_block(write) else {
        return true;
    };
    func.block_instrs(block)
        .into_iter()
        .any(|i| i != write && writes_overlapping(func, i, var, &path.elems))
}

/// True when an `emit_vertex` follows `write` in its block before an overlapping
/// write of `var`, a call or a jump.
fn emit_follows(func: &FunctionImpl, write: Instr, var: VarId) -> bool {
    let Some(path) = written_path(func, write) else {
        return false;
    };
    let mut cur = func.instr_next(write);
    while let Some(i) = cur {
        match &func.instrs[i].kind {
            InstrKind::Intrinsic(x) if x.op == IntrinsicOp::emit_vertex => return true,
            InstrKind::Call { .. } | InstrKind::Jump(_) => return false,
            _ if writes_overlapping(func, i, var, &path.elems) => return false,
            _ => {}
        }
        cur = func.instr_next(i);
    }
    false
}

/// A global name no global uses.
fn unique_global_name(shader: &Shader, base: &str) -> String {
    let taken = |n: &str| {
        shader
            .globals
            .iter()
            .any(|v| shader.variables.get(*v).is_some_and(|v| v.name == n))
            || shader.functions.iter().any(|(_, f)| {
                f.body.as_ref().is_some_and(|b| {
                    b.locals
                        .iter()
                        .any(|v| shader.variables.get(*v).is_some_and(|v| v.name == n))
                })
            })
    };
    if !taken(base) {
        return base.to_string();
    }
    (1u32..)
        .map(|i| format!("{base}_{i}"))
        .find(|n| !taken(n))
        .unwrap_or_else(|| base.to_string())
}
