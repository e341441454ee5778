//! Interface blocks that one stage declares with an instance name and the next
//! without (`out Blk { float a; };` against `in Blk { float a; } b;`). GLSL
//! matches blocks by block name whatever their instance names, but rgl keeps an
//! unnamed block as one variable per member and a named one as one variable of
//! the block type. Before varyings are matched, the unnamed side of such a pair
//! is rewritten into the named shape: one new instance variable, and every
//! reference to a member variable becomes a member access on it. Blocks that
//! have the same shape on both sides are left alone. Implicitly sized members
//! were sized per stage before this runs (`block_sizes`).

use std::collections::BTreeSet;

use rgl_glsl::arena::Handle;
use rgl_glsl::hir::{Expr, ExprKind, Item, Module, VarMode, Variable};
use rgl_glsl::types::{StructType, Type};

use super::types::without_array;
use super::StageState;

/// The block of a user variable that is a member of an unnamed interface
/// block, or `None` (built-ins such as `gl_Position` are never rewritten).
fn unnamed_member_block(var: &Variable) -> Option<Handle<StructType>> {
    if var.is_builtin {
        return None;
    }
    let b = var.interface_block?;
    match without_array(&var.ty) {
        Type::Struct(h) if *h == b => None,
        _ => Some(b),
    }
}

/// Block names of `mode` interface blocks in `module`: (named instances, unnamed).
fn block_shapes(module: &Module, mode: VarMode) -> (BTreeSet<String>, BTreeSet<String>) {
    let mut named = BTreeSet::new();
    let mut unnamed = BTreeSet::new();
    for (_, var) in module.variables.iter() {
        let Some(b) = var
            .interface_block
            .filter(|_| var.mode == mode && !var.is_builtin)
        else {
            continue;
        };
        let Some(block) = module.structs.get(b) else {
            continue;
        };
        let name = block.name.clone();
        if unnamed_member_block(var).is_some() {
            unnamed.insert(name);
        } else {
            named.insert(name);
        }
    }
    (named, unnamed)
}

/// Rewrites the unnamed `mode` block called `block` of `module` into an
/// instance variable named after the block.
fn name_block(module: &mut Module, mode: VarMode, block: &str) {
    let members: Vec<(Handle<Variable>, Handle<StructType>)> = module
        .variables
        .iter()
        .filter(|(_, v)| v.mode == mode)
        .filter_map(|(h, v)| unnamed_member_block(v).map(|b| (h, b)))
        .filter(|(_, b)| module.structs.get(*b).is_some_and(|s| s.name == block))
        .collect();
    let Some(&(first, b)) = members.first() else {
        return;
    };
    let Some(fields) = module.structs.get(b).map(|s| s.fields.clone()) else {
        return;
    };
    let template = module.variables[first].clone();
    let mut instance = Variable::new(block, Type::Struct(b), mode);
    instance.interface_block = Some(b);
    instance.location = template.location;
    instance.read_only = template.read_only;
    instance.used = members.iter().any(|(m, _)| module.variables[*m].used);
    instance.assigned = members.iter().any(|(m, _)| module.variables[*m].assigned);
    let inst = module.variables.append(instance);
    let loc = module.var_locs.get(first);
    module.var_locs.insert(inst, loc);
    // The instance takes the first member's place among the declarations; the
    // members stop being interface variables.
    let mut placed = false;
    module.items.retain_mut(|item| match item {
        Item::Variable(v) if members.iter().any(|(m, _)| m == v) => {
            if placed {
                false
            } else {
                *v = inst;
                placed = true;
                true
            }
        }
        _ => true,
    });
    for (m, _) in &members {
        let var = &mut module.variables[*m];
        var.mode = VarMode::Auto;
        var.interface_block = None;
    }
    let refs: Vec<(Handle<Expr>, u32)> = module
        .exprs
        .iter()
        .filter_map(|(e, x)| match x.kind {
            ExprKind::VarRef(v) => {
                let (member, _) = members.iter().find(|(m, _)| *m == v)?;
                let field = fields
                    .iter()
                    .position(|f| f.name == module.variables[*member].name)?;
                Some((e, field as u32))
            }
            _ => None,
        })
        .collect();
    for (e, field) in refs {
        let base = module.exprs.append(Expr {
            kind: ExprKind::VarRef(inst),
            ty: Type::Struct(b),
        });
        let loc = module.expr_locs.get(e);
        module.expr_locs.insert(base, loc);
        module.exprs[e].kind = ExprKind::RecordRef(base, field);
    }
}

/// Gives every interface block between adjacent stages the same shape on both
/// sides (see the module docs).
pub(crate) fn unify_block_shapes(stages: &mut [StageState]) {
    for i in 1..stages.len() {
        let (before, after) = stages.split_at_mut(i);
        let producer = &mut before[i - 1].linked.hir;
        let consumer = &mut after[0].linked.hir;
        let (out_named, out_unnamed) = block_shapes(producer, VarMode::ShaderOut);
        let (in_named, in_unnamed) = block_shapes(consumer, VarMode::ShaderIn);
        for block in out_unnamed.intersection(&in_named) {
            name_block(producer, VarMode::ShaderOut, block);
        }
        for block in in_unnamed.intersection(&out_named) {
            name_block(consumer, VarMode::ShaderIn, block);
        }
    }
    for st in stages.iter_mut() {
        st.refresh_usage();
    }
}
