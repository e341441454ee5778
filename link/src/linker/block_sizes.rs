//! Implicitly sized array members of interface blocks (GLSL 1.50 §4.3.7):
//! `out blk { float foo[]; };` takes, per stage, the size one past the highest
//! constant index the stage's code uses on the member, through an instance
//! (`ifc.foo[2]`, `ifc[i].foo[2]`) or, for an unnamed block, through the member
//! variable itself. The block type is rewritten to the sized member type, so
//! the interstage and intrastage block comparisons see the sizes: two stages
//! that size a member differently have non-matching block definitions. The
//! runtime-sized last member of a shader storage block is left unsized; any
//! other unsized member of a storage block (desktop GLSL 4.30 §4.1.9) is sized
//! the same way, and one the stage never indexes is a link error, as in Mesa,
//! whose array sizing leaves it with zero elements that its block layout
//! (`link_uniform_blocks`) rejects.

use std::collections::HashMap;

use rgl_glsl::arena::Handle;
use rgl_glsl::hir::{Constant, ExprKind, Module, ScalarValue, VarMode};
use rgl_glsl::types::{StructType, Type};

use super::types::without_array;
use crate::error::LinkError;

/// The value of a constant integer index expression.
fn constant_index(c: &Constant) -> Option<i64> {
    match c {
        Constant::Components(values) => match values.first()? {
            ScalarValue::Int(i) => Some(*i as i64),
            ScalarValue::Uint(u) => Some(*u as i64),
            _ => None,
        },
        Constant::Aggregate(_) => None,
    }
}

/// Sizes every implicitly sized member of the module's interface blocks (see
/// the module docs). A member the code never indexes gets one element, except
/// in a shader storage block, where it is reported in `errors`.
pub(crate) fn size_block_members(module: &mut Module, errors: &mut Vec<LinkError>) {
    // GLSL 4.30 §4.3.7: the last member of a shader storage block may be an
    // unsized array whose length comes from the bound buffer at run time; it keeps
    // its runtime size.
    let storage_blocks: Vec<Handle<StructType>> = module
        .variables
        .iter()
        .filter(|(_, v)| v.mode == VarMode::ShaderStorage)
        .filter_map(|(_, v)| v.interface_block)
        .collect();
    let runtime_sized = |b: Handle<StructType>, i: usize, fields: usize| {
        storage_blocks.contains(&b) && i + 1 == fields
    };
    let unsized_blocks: Vec<Handle<StructType>> = module
        .structs
        .iter()
        .filter(|(h, s)| {
            s.is_interface
                && s.fields.iter().enumerate().any(|(i, f)| {
                    matches!(f.ty, Type::Array(_, None)) && !runtime_sized(*h, i, s.fields.len())
                })
        })
        .map(|(h, _)| h)
        .collect();
    if unsized_blocks.is_empty() {
        return;
    }
    // Highest constant index per (block, member).
    let mut max: HashMap<(Handle<StructType>, usize), i64> = HashMap::new();
    for (_, e) in module.exprs.iter() {
        let ExprKind::ArrayRef(array, index) = e.kind else {
            continue;
        };
        let (Some(array), Some(index)) = (module.exprs.get(array), module.exprs.get(index)) else {
            continue;
        };
        let ExprKind::RecordRef(base, field) = array.kind else {
            continue;
        };
        // A constant, or a `const` variable such as `gl_MaxClipDistances`.
        let value = match &index.kind {
            ExprKind::Constant(c) => Some(c),
            ExprKind::VarRef(v) => module
                .variables
                .get(*v)
                .filter(|v| v.read_only)
                .and_then(|v| v.constant_value.as_ref()),
            _ => None,
        };
        let Some(i) = value.and_then(constant_index) else {
            continue;
        };
        let Some(base) = module.exprs.get(base) else {
            continue;
        };
        if let Type::Struct(b) = without_array(&base.ty) {
            if unsized_blocks.contains(b) {
                let m = max.entry((*b, field as usize)).or_insert(-1);
                *m = (*m).max(i);
            }
        }
    }
    // Members of unnamed blocks are variables with their own highest index.
    for (_, var) in module.variables.iter() {
        let Some(b) = var.interface_block else {
            continue;
        };
        if !unsized_blocks.contains(&b)
            || matches!(without_array(&var.ty), Type::Struct(h) if *h == b)
        {
            continue;
        }
        let Some(field) = module
            .structs
            .get(b)
            .and_then(|s| s.fields.iter().position(|f| f.name == var.name))
        else {
            continue;
        };
        let m = max.entry((b, field)).or_insert(-1);
        *m = (*m).max(var.max_array_access as i64);
    }
    let mut sized: HashMap<(Handle<StructType>, usize), Type> = HashMap::new();
    for &b in &unsized_blocks {
        let count = module.structs[b].fields.len();
        for (i, f) in module.structs[b].fields.iter_mut().enumerate() {
            if runtime_sized(b, i, count) {
                continue;
            }
            if let Type::Array(elem, None) = &f.ty {
                let highest = max.get(&(b, i)).copied().unwrap_or(-1);
                if highest < 0 && storage_blocks.contains(&b) {
                    errors.push(LinkError::UnsizedBufferMemberNotLast(f.name.clone()));
                }
                let highest = highest.max(0);
                let len = u32::try_from(highest + 1).unwrap_or(u32::MAX);
                f.ty = Type::Array(elem.clone(), Some(len));
                sized.insert((b, i), f.ty.clone());
            }
        }
    }
    // Member accesses through an instance take the sized type.
    let retyped: Vec<(Handle<rgl_glsl::hir::Expr>, Type)> = module
        .exprs
        .iter()
        .filter_map(|(h, e)| {
            let ExprKind::RecordRef(base, field) = e.kind else {
                return None;
            };
            let base = module.exprs.get(base)?;
            let Type::Struct(b) = without_array(&base.ty) else {
                return None;
            };
            let ty = sized.get(&(*b, field as usize))?;
            Some((h, ty.clone()))
        })
        .collect();
    for (h, ty) in retyped {
        module.exprs[h].ty = ty;
    }
    // Unnamed members are variables; the stage's implicit array sizing gives
    // them the same size from the same highest index.
}
