//! `lower_io` of default-block uniforms and uniform blocks:
//! * **Uniforms** → `load_uniform (offset) (base, range, dest_type)`: `base` = the
//!   variable's `driver_location` (vec4 slot, see `rgl-link`'s program conventions) plus
//!   the constant part of the offset, `range` = slots from `base` to the end of the
//!   variable, the offset source holds the indirect part (vec4 slots).
//! * **Uniform blocks** → `load_ubo (block, byte offset)`: the block variable has the
//!   block's struct type (an unnamed block's members are reached with `deref_struct`,
//!   as Mesa's `glsl_to_nir` emits them) or an array of it; its `driver_location` is the
//!   block index (array element `i` is block `driver_location + i`). Offsets follow
//!   std140; the matrix layout comes from the struct fields walked ([`FieldLayout`]:
//!   `row_major`/`column_major` or inherited, column-major at the top of a block). A
//!   row-major `CxR` matrix is `R` row vectors at a 16-byte stride, so column `i`
//!   starts at byte `4 * i` and its components are 16 bytes apart: a column load
//!   (constant or dynamic `i`) becomes one scalar `load_ubo` per row gathered with
//!   `vecN` (as Mesa's UBO lowering does), and an element `m[i][j]` one scalar load
//!   at `4 * i + 16 * j`.
//!   `align_mul`/`align_offset` describe the offset (16 and `offset % 16` for constant
//!   offsets); `range_base` = 0 and `range` = the block's std140 size.

use super::offset::*;
use super::*;
use crate::builder::vec_opcode;
use crate::ir::types::Packing;

pub(super) fn lower_uniform_load(
    cx: &Ctx,
    func: &mut FunctionImpl,
    uses: &mut Uses,
    instr: Instr,
    var: &Variable,
    links: &[Link],
) -> bool {
    let Some(old) = func.instrs[instr].def else {
        return false;
    };
    let Some(var_slots) = var.ty.type_size_vec4(cx.structs) else {
        return false;
    };
    let Some((off, leaf)) = compute_offset(func, cx.structs, &var.ty, links, Units::Vec4) else {
        return false;
    };
    let (Some(code), Some(leaf_comps)) = (type_code(&leaf), leaf.vector_components()) else {
        return false;
    };
    let vec_comps = match off.comp {
        Some(_) => links
            .len()
            .checked_sub(1)
            .and_then(|n| compute_offset(func, cx.structs, &var.ty, &links[..n], Units::Vec4))
            .and_then(|(_, t)| t.vector_components())
            .unwrap_or(1),
        None => leaf_comps,
    };
    let base = var.driver_location.saturating_add(off.konst);
    let range = var_slots.saturating_sub(off.konst);
    let mut b = Builder::new(func, Cursor::Before(instr));
    let offset = emit_offset(&mut b, &off.terms, 0);
    let Some(mut loaded) = b.intrinsic(
        IntrinsicOp::load_uniform,
        vec![offset],
        vec_comps,
        vec![base, range, code],
        Some((vec_comps, 32)),
    ) else {
        return false;
    };
    if let Some(sel) = off.comp {
        loaded = pick_component(&mut b, loaded, sel);
    }
    finish_load(func, uses, instr, old, loaded, is_bool(&leaf));
    true
}

pub(super) fn lower_ubo_load(
    cx: &Ctx,
    func: &mut FunctionImpl,
    uses: &mut Uses,
    instr: Instr,
    var: &Variable,
    links: &[Link],
) -> bool {
    let Some(old) = func.instrs[instr].def else {
        return false;
    };
    // Block arrays: the leading indices pick the block. An array of arrays of
    // blocks (GL 4.3 §7.3.1.1) numbers its blocks in row-major order, so the
    // block is `driver_location + Σ index_k * (blocks per element of dim k)`.
    let mut block_ty = &var.ty;
    let mut picks: Vec<(Def, u32)> = Vec::new();
    let mut rest = links;
    while let Type::Array(e, _) = block_ty {
        let Some((Link::Array(idx), tail)) = rest.split_first() else {
            return false;
        };
        picks.push((*idx, e.flattened_array_len()));
        rest = tail;
        block_ty = e;
    }
    let (links, block_ty) = (rest, block_ty.clone());
    let Some((_, block_size)) = block_ty.std140_align_size(cx.structs, false) else {
        return false;
    };
    let Some((off, leaf)) = compute_offset(
        func,
        cx.structs,
        &block_ty,
        links,
        Units::Bytes(Packing::Std140),
    ) else {
        return false;
    };
    let (Some(_), Some(comps)) = (type_code(&leaf), leaf.vector_components()) else {
        return false;
    };
    let mut b = Builder::new(func, Cursor::Before(instr));
    let mut konst_block = var.driver_location;
    let mut block_terms: Vec<(Def, u32)> = Vec::new();
    for (idx, per) in picks {
        if let Some(c) = const_u32(b.func, idx) {
            konst_block = konst_block.saturating_add(c.saturating_mul(per));
        } else if b.func.defs[idx].bit_size == 32 && b.func.defs[idx].num_components == 1 {
            block_terms.push((idx, per));
        } else {
            return false;
        }
    }
    let block_index = emit_offset(&mut b, &block_terms, konst_block);
    let mut terms = off.terms.clone();
    let mut konst = off.konst;
    match off.comp {
        Some(Comp::Const(c)) => {
            konst = konst.saturating_add(off.comp_stride.saturating_mul(u32::from(c)))
        }
        Some(Comp::Dynamic(idx)) => terms.push((idx, off.comp_stride)),
        None => {}
    }
    let loaded = if comps > 1 && off.comp_stride != 4 {
        // The components are not adjacent (a column of a row-major matrix): one scalar
        // load per component, gathered with `vecN`.
        let Some(op) = vec_opcode(comps) else {
            return false;
        };
        let mut parts = Vec::with_capacity(usize::from(comps));
        for i in 0..u32::from(comps) {
            let k = konst.saturating_add(off.comp_stride.saturating_mul(i));
            let Some(part) = emit_ubo_load(&mut b, block_index, &terms, k, 1, block_size) else {
                return false;
            };
            parts.push(AluSrc::new(part));
        }
        b.alu_sized(op, parts, false, comps, 32)
    } else {
        match emit_ubo_load(&mut b, block_index, &terms, konst, comps, block_size) {
            Some(l) => l,
            None => return false,
        }
    };
    finish_load(func, uses, instr, old, loaded, is_bool(&leaf));
    true
}

/// Emits one `load_ubo` of `comps` 32-bit components at byte offset `konst` plus the
/// `terms`, with the alignment the offset guarantees.
pub(super) fn emit_ubo_load(
    b: &mut Builder,
    block_index: Def,
    terms: &[(Def, u32)],
    konst: u32,
    comps: u8,
    block_size: u32,
) -> Option<Def> {
    let (align_mul, align_offset) = alignment(terms, konst);
    let offset = emit_offset(b, terms, konst);
    b.intrinsic(
        IntrinsicOp::load_ubo,
        vec![block_index, offset],
        comps,
        vec![0, align_mul, align_offset, 0, block_size],
        Some((comps, 32)),
    )
}
