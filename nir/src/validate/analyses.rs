//! Validator check of the analyses a function body carries (stage 4 of
//! [`crate::validate`]): kept use lists, block indices and immediate dominators must
//! equal what a fresh computation gives now. Mesa's `nir_validate.c` does the same
//! for the SSA use lists (`validate_ssa_def` against the collected uses) and, under
//! `NIR_DEBUG=validate_ssa_dominance` / `nir_metadata_require`, for dominance.

use super::V;

/// Reports every kept analysis of `v.func` that is not current.
pub(super) fn check_kept_analyses(v: &mut V) {
    let func = v.func;
    if let Some(kept) = func.kept_uses() {
        let fresh = func.build_uses();
        for (d, _) in func.defs.iter() {
            if kept[d] != fresh[d] {
                v.err(
                    d,
                    format!(
                        "kept use list is stale: kept {:?}, current {:?}",
                        kept[d].as_slice(),
                        fresh[d].as_slice()
                    ),
                );
            }
        }
    }
    let (kept_index, kept_idom) = (&func.metadata.block_index, &func.metadata.idom);
    if kept_index.is_none() && kept_idom.is_none() {
        return;
    }
    let mut fresh = func.clone();
    fresh.invalidate_metadata();
    fresh.compute_dominance();
    let fresh_index = fresh.block_indices().clone();
    let fresh_idom = fresh.metadata.idom.clone().unwrap_or_default();
    for b in func.blocks_in_order() {
        if let Some(kept) = kept_index {
            if kept[b] != fresh_index[b] {
                v.err(
                    b,
                    format!(
                        "kept block index {} is stale: now {}",
                        kept[b], fresh_index[b]
                    ),
                );
            }
        }
        if let Some(kept) = kept_idom {
            if kept[b] != fresh_idom[b] {
                v.err(
                    b,
                    format!(
                        "kept immediate dominator {:?} is stale: now {:?}",
                        kept[b], fresh_idom[b]
                    ),
                );
            }
        }
    }
}
