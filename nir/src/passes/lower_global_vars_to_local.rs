//! `lower_global_vars_to_local` (Mesa's `nir_lower_global_vars_to_local`): a
//! `shader_temp` global referenced by exactly one function becomes a `function_temp`
//! local of that function (its initializer kept), and every deref rooted at it takes
//! the new mode. Globals referenced by no function or by several stay global. The
//! local is renamed when the function already has a local of that name (variables
//! are resolved by name in the text form).

use super::var_util::*;
use super::{Pass, PassFailure};
use crate::ir::*;
use rustc_hash::FxHashMap as HashMap;

/// The pass.
pub struct LowerGlobalVarsToLocal;

impl Pass for LowerGlobalVarsToLocal {
    fn name(&self) -> &'static str {
        "lower_global_vars_to_local"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        // Which functions reference each shader_temp global.
        let mut users: HashMap<VarId, Vec<FuncId>> = HashMap::default();
        for (fid, f) in shader.functions.iter() {
            let Some(body) = &f.body else { continue };
            for i in all_instrs(body) {
                if let InstrKind::Deref(Deref {
                    kind: DerefKind::Var(v),
                    ..
                }) = &body.instrs[i].kind
                {
                    let is_temp_global = shader.globals.contains(v)
                        && shader
                            .variables
                            .get(*v)
                            .is_some_and(|d| d.mode == VarMode::ShaderTemp);
                    if is_temp_global {
                        let e = users.entry(*v).or_default();
                        if !e.contains(&fid) {
                            e.push(fid);
                        }
                    }
                }
            }
        }
        let mut moved: HashMap<FuncId, Vec<VarId>> = HashMap::default();
        for (&v, fs) in &users {
            if let [f] = fs.as_slice() {
                moved.entry(*f).or_default().push(v);
            }
        }
        if moved.is_empty() {
            return Ok(false);
        }
        let all_moved: Vec<VarId> = moved.values().flatten().copied().collect();
        shader.globals.retain(|g| !all_moved.contains(g));
        Ok(for_each_impl_mut(shader, |shader, fid, func| {
            let Some(vars) = moved.get(&fid) else {
                return false;
            };
            // Keep the declaration order of the globals.
            let mut vars = vars.clone();
            vars.sort();
            let mut names = Names::new(shader, func);
            for &v in &vars {
                let base = shader.variables[v].name.clone();
                let name = names.fresh(&base);
                let var = &mut shader.variables[v];
                var.name = name;
                var.mode = VarMode::FunctionTemp;
                func.locals.push(v);
            }
            for i in all_instrs(func) {
                let InstrKind::Deref(dr) = &func.instrs[i].kind else {
                    continue;
                };
                if dr.mode != VarMode::ShaderTemp {
                    continue;
                }
                let Some(def) = func.instrs[i].def else {
                    continue;
                };
                if root_var(func, def).is_some_and(|r| vars.contains(&r)) {
                    if let InstrKind::Deref(dr) = &mut func.instrs[i].kind {
                        dr.mode = VarMode::FunctionTemp;
                    }
                }
            }
            true
        }))
    }
}
