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
//! Copies of aggregates are left to `split_var_copies`/`lower_var_copies`; the shadows
//! are globals, so `lower_global_vars_to_local` then `lower_vars_to_ssa` turn them
//! into SSA values.

use super::var_util::*;
use super::Pass;
use crate::builder::{Builder, Cursor};
use crate::intrinsics::IntrinsicOp;
use crate::ir::*;
use std::collections::HashMap;

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
    fn run(&self, shader: &mut Shader) -> bool {
        let Some(entry) = shader
            .functions
            .iter()
            .find(|(_, f)| f.is_entrypoint && f.body.is_some())
            .map(|(id, _)| id)
        else {
            return false;
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
        if io.is_empty() {
            return false;
        }
        // Shadows.
        let mut shadow: HashMap<VarId, VarId> = HashMap::new();
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
        true
    }
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
