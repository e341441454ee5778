//! `split_var_copies` (Mesa's `nir_split_var_copies`): a `copy_deref` of an aggregate
//! is split until every copy moves a vector or a scalar: struct copies become one copy
//! per field, and array and matrix copies become a copy of the wildcard element
//! (`&(*a)[*]`), split further when the element is itself an aggregate. So a copy of
//! `float[4]` becomes one wildcard copy of the floats, and a copy of `S[2]` with
//! fields `a`, `b` becomes copies of `[*].a` and `[*].b`; `lower_var_copies` expands
//! the wildcards later. Deref chains left unused are removed. Copies between different types are left alone.

use super::var_util::*;
use super::{Pass, PassFailure};
use crate::builder::{Builder, Cursor};
use crate::intrinsics::IntrinsicOp;
use crate::ir::*;

/// The pass.
pub struct SplitVarCopies;

impl Pass for SplitVarCopies {
    fn name(&self) -> &'static str {
        "split_var_copies"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        Ok(for_each_impl_mut(shader, |shader, _, func| {
            let mut progress = false;
            for instr in all_instrs(func) {
                progress |= split_copy(shader, func, instr);
            }
            if progress {
                remove_dead_derefs(func);
            }
            progress
        }))
    }
}

/// Splits one aggregate `copy_deref`; false when it is not one (or cannot be split).
fn split_copy(shader: &Shader, func: &mut FunctionImpl, instr: Instr) -> bool {
    let Some(intr) = intrinsic(func, instr) else {
        return false;
    };
    if intr.op != IntrinsicOp::copy_deref || intr.srcs.len() != 2 {
        return false;
    }
    let (dst, src) = (intr.srcs[0], intr.srcs[1]);
    let indices = intr.indices.clone();
    let (Some(dt), Some(st)) = (deref(func, dst), deref(func, src)) else {
        return false;
    };
    if dt.ty != st.ty || is_leaf(&dt.ty) || !splittable(shader, &dt.ty) {
        return false;
    }
    let (dmode, smode, ty) = (dt.mode, st.mode, dt.ty.clone());
    let mut b = Builder::new(func, Cursor::Before(instr));
    // Depth-first, children in order: (dst, src, type).
    let mut stack = vec![(dst, src, ty, 0usize)];
    while let Some((d, s, t, depth)) = stack.pop() {
        if is_leaf(&t) || depth > MAX_TYPE_DEPTH {
            b.intrinsic(
                IntrinsicOp::copy_deref,
                vec![d, s],
                0,
                indices.clone(),
                None,
            );
            continue;
        }
        let links: Vec<PathElem> = match &t {
            Type::Array(..) | Type::Matrix { .. } => vec![PathElem::Wildcard],
            Type::Struct(_) => children(shader, &t)
                .unwrap_or_default()
                .into_iter()
                .map(|(e, _)| e)
                .collect(),
            _ => Vec::new(),
        };
        let mut items = Vec::new();
        for e in &links {
            let (Some((dd, ct)), Some((sd, _))) = (
                build_link(&mut b, shader, d, dmode, &t, e),
                build_link(&mut b, shader, s, smode, &t, e),
            ) else {
                continue;
            };
            items.push((dd, sd, ct, depth + 1));
        }
        stack.extend(items.into_iter().rev());
    }
    func.remove_instr(instr);
    true
}

/// True when every aggregate level of `ty` can be split (no opaque leaves, bounded
/// nesting): arrays/matrices/structs down to vectors and scalars.
fn splittable(shader: &Shader, ty: &Type) -> bool {
    let mut stack = vec![(ty.clone(), 0usize)];
    let mut visited = 0usize;
    while let Some((t, depth)) = stack.pop() {
        visited += 1;
        if depth > MAX_TYPE_DEPTH || visited > 100_000 {
            return false;
        }
        match &t {
            Type::Scalar(_) | Type::Vector(..) => {}
            Type::Array(e, _) => stack.push(((**e).clone(), depth + 1)),
            Type::Matrix { .. } => {}
            Type::Struct(_) => match children(shader, &t) {
                Some(c) => stack.extend(c.into_iter().map(|(_, t)| (t, depth + 1))),
                None => return false,
            },
            Type::Sampler { .. } | Type::Image { .. } => return false,
        }
    }
    true
}
