//! `lower_var_copies` (Mesa's `nir_lower_var_copies`): every `copy_deref` becomes a
//! `load_deref` + `store_deref` (full write mask) per vector/scalar leaf of the copied
//! type. Wildcard links (`[*]`, from `split_var_copies`) are expanded to every index of
//! their array, in lock-step on both sides; structs are split per field, arrays per
//! element and matrices per column. The load carries the copy's `src_access`, the store
//! its `dst_access`.
//!
//! Deref chains left unused by the lowered copies are removed.
//!
//! Copies that cannot be expanded are left alone and stay `copy_deref`s (the backend
//! executes them as memory copies): unsized arrays, mismatched source/destination
//! types, chains the pass cannot rebuild (a cast below a wildcard), and copies of more
//! than [`MAX_LEAVES`] leaves (a bound so a copy of a huge array cannot blow up the
//! shader).

use super::var_util::*;
use super::{Pass, PassFailure};
use crate::builder::{Builder, Cursor};
use crate::intrinsics::IntrinsicOp;
use crate::ir::*;

/// Most leaf load/store pairs one copy expands to.
pub const MAX_LEAVES: u64 = 16384;

/// The pass.
pub struct LowerVarCopies;

impl Pass for LowerVarCopies {
    fn name(&self) -> &'static str {
        "lower_var_copies"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        Ok(for_each_impl_mut(shader, |shader, _, func| {
            let mut progress = false;
            for instr in all_instrs(func) {
                if intrinsic(func, instr).is_some_and(|i| i.op == IntrinsicOp::copy_deref) {
                    progress |= lower_copy(shader, func, instr, MAX_LEAVES);
                }
            }
            if progress {
                remove_dead_derefs(func);
            }
            progress
        }))
    }
}

/// One side of a copy: the deepest deref before the first wildcard, its type, and the
/// links after it (starting with that wildcard).
struct Side {
    base: Def,
    mode: VarMode,
    ty: Type,
    rest: Vec<PathElem>,
}

fn side(shader: &Shader, func: &FunctionImpl, d: Def) -> Option<Side> {
    let (root, links) = chain_links(func, d)?;
    let first_wild = links.iter().position(|(e, _)| *e == PathElem::Wildcard);
    let (base, rest) = match first_wild {
        None => (d, Vec::new()),
        Some(0) => (root, links.iter().map(|(e, _)| e.clone()).collect()),
        Some(i) => (
            links[i - 1].1,
            links[i..].iter().map(|(e, _)| e.clone()).collect(),
        ),
    };
    let dr = deref(func, base)?;
    let (mode, ty) = (dr.mode, dr.ty.clone());
    // Every link after the base must be rebuildable and typed.
    let mut t = ty.clone();
    for e in &rest {
        if *e == PathElem::Cast {
            return None;
        }
        t = child_type(shader, &t, e)?;
    }
    Some(Side {
        base,
        mode,
        ty,
        rest,
    })
}

/// Array lengths of the wildcards of a side, in order.
fn wildcard_lens(shader: &Shader, s: &Side) -> Option<Vec<u32>> {
    let mut t = s.ty.clone();
    let mut out = Vec::new();
    for e in &s.rest {
        if *e == PathElem::Wildcard {
            out.push(array_len(&t)?);
        }
        t = child_type(shader, &t, e)?;
    }
    Some(out)
}

/// Lowers the `copy_deref` `instr` to loads and stores of its leaves. Returns false
/// (changing nothing) when the copy cannot be expanded or exceeds `limit` leaves.
pub fn lower_copy(shader: &Shader, func: &mut FunctionImpl, instr: Instr, limit: u64) -> bool {
    let Some(intr) = intrinsic(func, instr) else {
        return false;
    };
    if intr.op != IntrinsicOp::copy_deref || intr.srcs.len() != 2 {
        return false;
    }
    let (dst, src) = (intr.srcs[0], intr.srcs[1]);
    let dst_access = intr.indices.first().copied().unwrap_or(0);
    let src_access = intr.indices.get(1).copied().unwrap_or(0);
    let (Some(dt), Some(st)) = (deref(func, dst), deref(func, src)) else {
        return false;
    };
    if dt.ty != st.ty {
        return false;
    }
    let leaf_ty = dt.ty.clone();
    let (Some(ds), Some(ss)) = (side(shader, func, dst), side(shader, func, src)) else {
        return false;
    };
    let (Some(dl), Some(sl)) = (wildcard_lens(shader, &ds), wildcard_lens(shader, &ss)) else {
        return false;
    };
    if dl != sl {
        return false;
    }
    let mut total = match leaf_count(shader, &leaf_ty, limit) {
        Some(n) => n,
        None => return false,
    };
    for n in &dl {
        total = match total.checked_mul(u64::from(*n)) {
            Some(t) if t <= limit => t,
            _ => return false,
        };
    }

    struct Item {
        dst: Def,
        dst_ty: Type,
        dst_pos: usize,
        src: Def,
        src_ty: Type,
        src_pos: usize,
        /// A link to build on both sides first (an element or field of the parent).
        link: Option<PathElem>,
    }
    let mut b = Builder::new(func, Cursor::Before(instr));
    let mut stack = vec![Item {
        dst: ds.base,
        dst_ty: ds.ty.clone(),
        dst_pos: 0,
        src: ss.base,
        src_ty: ss.ty.clone(),
        src_pos: 0,
        link: None,
    }];
    while let Some(mut it) = stack.pop() {
        if let Some(e) = it.link.take() {
            let Some((d, dt)) = build_link(&mut b, shader, it.dst, ds.mode, &it.dst_ty, &e) else {
                continue;
            };
            let Some((s, st)) = build_link(&mut b, shader, it.src, ss.mode, &it.src_ty, &e) else {
                continue;
            };
            (it.dst, it.dst_ty, it.src, it.src_ty) = (d, dt, s, st);
        }
        // Advance each side to its next wildcard.
        while let Some(e) = ds
            .rest
            .get(it.dst_pos)
            .filter(|e| **e != PathElem::Wildcard)
        {
            let Some((d, t)) = build_link(&mut b, shader, it.dst, ds.mode, &it.dst_ty, e) else {
                break;
            };
            (it.dst, it.dst_ty, it.dst_pos) = (d, t, it.dst_pos + 1);
        }
        while let Some(e) = ss
            .rest
            .get(it.src_pos)
            .filter(|e| **e != PathElem::Wildcard)
        {
            let Some((d, t)) = build_link(&mut b, shader, it.src, ss.mode, &it.src_ty, e) else {
                break;
            };
            (it.src, it.src_ty, it.src_pos) = (d, t, it.src_pos + 1);
        }
        let dst_wild = it.dst_pos < ds.rest.len();
        let src_wild = it.src_pos < ss.rest.len();
        let links: Vec<PathElem> = if dst_wild && src_wild {
            let n = array_len(&it.dst_ty).unwrap_or(0);
            (0..n).map(PathElem::Index).collect()
        } else if !dst_wild && !src_wild {
            if is_leaf(&it.dst_ty) {
                let (Some(comps), Some(bits)) =
                    (it.dst_ty.vector_components(), it.dst_ty.bit_size())
                else {
                    continue;
                };
                let Some(v) = b.intrinsic(
                    IntrinsicOp::load_deref,
                    vec![it.src],
                    comps,
                    vec![src_access],
                    Some((comps, bits)),
                ) else {
                    continue;
                };
                b.intrinsic(
                    IntrinsicOp::store_deref,
                    vec![it.dst, v],
                    comps,
                    vec![full_mask(comps), dst_access],
                    None,
                );
                continue;
            }
            match children(shader, &it.dst_ty) {
                Some(c) => c.into_iter().map(|(e, _)| e).collect(),
                None => continue,
            }
        } else {
            continue;
        };
        let skip = usize::from(dst_wild);
        for e in links.into_iter().rev() {
            stack.push(Item {
                dst: it.dst,
                dst_ty: it.dst_ty.clone(),
                dst_pos: it.dst_pos + skip,
                src: it.src,
                src_ty: it.src_ty.clone(),
                src_pos: it.src_pos + skip,
                link: Some(e),
            });
        }
    }
    func.remove_instr(instr);
    true
}
