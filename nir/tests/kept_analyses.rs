//! Kept analyses (use lists a pass hands to the next one, `FunctionImpl::keep_uses`)
//! are checked by the validator: on every shader of the `tests/ir` corpus and every
//! file-test input, lists kept while current validate, and lists kept across a change
//! (an instruction that reads a value removed) are reported as stale.

mod common;

use rgl_nir::ir::{FunctionImpl, Instr};

/// An attached instruction that reads a value and whose own value (if any) nothing
/// reads: removing it leaves valid IR with different use lists.
fn removable(func: &FunctionImpl) -> Option<Instr> {
    let uses = func.build_uses();
    func.blocks_in_order().into_iter().find_map(|b| {
        func.block_instrs(b).into_iter().find(|&i| {
            let mut reads = false;
            func.instrs[i].for_each_src(|_| reads = true);
            let unused = func.instrs[i].def.is_none_or(|d| uses[d].is_empty());
            reads && unused && func.instrs[i].defs().len() <= 1
        })
    })
}

#[test]
fn stale_kept_use_lists_are_reported() {
    let (mut current, mut stale) = (0, 0);
    let mut failures = Vec::new();
    for (name, text) in common::corpus_inputs() {
        let Ok(mut shader) = rgl_nir::reader::parse_shader(&text) else {
            continue;
        };
        if rgl_nir::validate::validate(&shader).is_err() {
            continue;
        }
        let ids: Vec<_> = shader.functions.keys().collect();
        let Some(id) = ids
            .into_iter()
            .find(|id| shader.functions[*id].body.is_some())
        else {
            continue;
        };
        let body = shader.functions[id].body.as_mut().expect("has a body");
        let uses = body.take_uses();
        body.keep_uses(uses);
        if let Err(e) = rgl_nir::validate::validate(&shader) {
            failures.push(format!("{name}: current lists rejected:\n{e}"));
            continue;
        }
        current += 1;
        let body = shader.functions[id].body.as_mut().expect("has a body");
        let Some(victim) = removable(body) else {
            continue;
        };
        let uses = body.take_uses();
        body.remove_instr(victim);
        body.keep_uses(uses);
        match rgl_nir::validate::validate(&shader) {
            Err(e) if e.to_string().contains("kept use list is stale") => stale += 1,
            Err(e) => failures.push(format!("{name}: unexpected errors:\n{e}")),
            Ok(()) => failures.push(format!(
                "{name}: stale lists after removing {victim} accepted"
            )),
        }
    }
    assert!(current > 20, "only {current} shaders");
    assert!(stale > 20, "only {stale} stale cases");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
