//! `lower_indirect_derefs` (Mesa's `nir_lower_indirect_derefs`, the
//! `nir_lower_indirect_derefs_to_if_else_trees` form): a `load_deref`/`store_deref`
//! through an array deref with a non-constant index, on a variable of a selected
//! mode, becomes a binary tree of `if (index < mid)` branches whose leaves access the
//! array at constant indices; a load's result is merged by phis. Several indirect
//! links in one chain nest trees. Out-of-range indices land on the first or last
//! element (like Mesa's tree).
//!
//! Bounds: arrays longer than `max_array_len` (256 for the registered pass, which
//! works on `function_temp` and `shader_temp`) are left alone, as are chains whose
//! trees would have more than [`MAX_LEAVES`] leaves or more than
//! [`MAX_INDIRECT_LINKS`] indirect links. Such accesses stay `load_deref`/`store_deref`
//! on the variable: this is rgl's equivalent of Mesa's `nir_lower_locals_to_regs` for
//! indirectly indexed arrays. The backend addresses those variables as scratch memory
//! through their derefs (element offset = index × element size), so they need no
//! further lowering. The deref chains of lowered accesses are removed when unused.
//! Copies are not handled here: `lower_var_copies` runs first.

use super::remove_dead_variables::mode_bit;
use super::var_util::*;
use super::{Pass, PassFailure};
use crate::builder::{Builder, Cursor};
use crate::intrinsics::IntrinsicOp;
use crate::ir::*;
use crate::opcodes::Opcode;

/// Most leaves (constant-index accesses) one lowered access may expand to.
pub const MAX_LEAVES: u64 = 4096;

/// Most indirect links in one lowered deref chain.
pub const MAX_INDIRECT_LINKS: usize = 8;

/// The pass over variables whose mode is in `modes` (bits of [`mode_bit`]).
#[derive(Copy, Clone, Debug)]
pub struct LowerIndirectDerefs {
    modes: u32,
    max_array_len: u32,
}

impl LowerIndirectDerefs {
    /// The registered pass: temporaries, arrays up to 256 elements.
    pub const TEMPS: LowerIndirectDerefs = LowerIndirectDerefs {
        modes: mode_bit(VarMode::FunctionTemp) | mode_bit(VarMode::ShaderTemp),
        max_array_len: 256,
    };
    /// The pass over `modes` with a bound on the array length.
    pub fn new(modes: &[VarMode], max_array_len: u32) -> LowerIndirectDerefs {
        LowerIndirectDerefs {
            modes: modes.iter().fold(0, |m, v| m | mode_bit(*v)),
            max_array_len,
        }
    }
}

impl Pass for LowerIndirectDerefs {
    fn name(&self) -> &'static str {
        "lower_indirect_derefs"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        let this = *self;
        Ok(for_each_impl_mut(shader, |shader, _, func| {
            let mut progress = false;
            for i in all_instrs(func) {
                progress |= this.lower_access(shader, func, i);
            }
            if progress {
                remove_dead_derefs(func);
            }
            progress
        }))
    }
}

#[derive(Clone, Copy)]
enum Op {
    Load { comps: u8, bits: u8, access: u32 },
    Store { value: Def, mask: u32, access: u32 },
}

struct Ctx<'a> {
    shader: &'a Shader,
    func: &'a mut FunctionImpl,
    mode: VarMode,
    op: Op,
}

impl LowerIndirectDerefs {
    fn lower_access(&self, shader: &Shader, func: &mut FunctionImpl, instr: Instr) -> bool {
        let Some(intr) = intrinsic(func, instr) else {
            return false;
        };
        let Some(&addr) = intr.srcs.first() else {
            return false;
        };
        let op = match intr.op {
            IntrinsicOp::load_deref => {
                let Some(d) = func.instrs[instr].def else {
                    return false;
                };
                Op::Load {
                    comps: func.defs[d].num_components,
                    bits: func.defs[d].bit_size,
                    access: intr.indices.first().copied().unwrap_or(0),
                }
            }
            IntrinsicOp::store_deref => {
                let Some(&value) = intr.srcs.get(1) else {
                    return false;
                };
                Op::Store {
                    value,
                    mask: intr.indices.first().copied().unwrap_or(0),
                    access: intr.indices.get(1).copied().unwrap_or(0),
                }
            }
            _ => return false,
        };
        let Some(path) = deref_path(func, addr) else {
            return false;
        };
        let Some(first) = path
            .elems
            .iter()
            .position(|e| matches!(e, PathElem::Indirect(_)))
        else {
            return false;
        };
        let Some(var) = shader.variables.get(path.var) else {
            return false;
        };
        if self.modes & mode_bit(var.mode) == 0 || path.elems.contains(&PathElem::Cast) {
            return false;
        }
        // Bounds on the trees.
        let mut ty = var.ty.clone();
        let mut leaves = 1u64;
        let mut links = 0usize;
        for e in &path.elems {
            if matches!(e, PathElem::Indirect(_)) {
                let Some(n) = array_len(&ty) else {
                    return false;
                };
                links += 1;
                leaves = leaves.saturating_mul(u64::from(n));
                if n > self.max_array_len || leaves > MAX_LEAVES || links > MAX_INDIRECT_LINKS {
                    return false;
                }
            }
            match child_type(shader, &ty, e) {
                Some(t) => ty = t,
                None => return false,
            }
        }
        let Some(base) = path.defs.get(first).copied() else {
            return false;
        };
        let Some(bd) = deref(func, base) else {
            return false;
        };
        let (mode, base_ty) = (bd.mode, bd.ty.clone());
        let rest = path.elems[first..].to_vec();
        let Some(orig_block) = func.instr_block(instr) else {
            return false;
        };
        let mut ctx = Ctx {
            shader,
            func,
            mode,
            op,
        };
        let Some((_, value)) = emit(&mut ctx, Cursor::Before(instr), base, base_ty, &rest) else {
            return false;
        };
        // The tail of the block (up to its jump) now ends the last block of the tree.
        if let Some(tail) = func.instr_block(instr) {
            rename_phi_preds_after_split(func, orig_block, tail);
        }
        if let (Op::Load { .. }, Some(v), Some(old)) = (op, value, func.instrs[instr].def) {
            func.rewrite_uses(None, old, v);
        }
        func.remove_instr(instr);
        true
    }
}

fn cursor_block(func: &FunctionImpl, c: Cursor) -> Option<Block> {
    match c {
        Cursor::StartOf(b) | Cursor::EndOf(b) => Some(b),
        Cursor::Before(i) | Cursor::After(i) => func.instr_block(i),
    }
}

/// Builds the links `rest` on `cur` at `cursor`, branching at indirect links, and
/// performs the access at every leaf. Returns the cursor after everything and, for
/// loads, the value.
fn emit(
    ctx: &mut Ctx,
    cursor: Cursor,
    cur: Def,
    ty: Type,
    rest: &[PathElem],
) -> Option<(Cursor, Option<Def>)> {
    let (mut cursor, mut cur, mut ty) = (cursor, cur, ty);
    for (i, e) in rest.iter().enumerate() {
        if let PathElem::Indirect(index) = e {
            let n = array_len(&ty)?;
            return ladder(ctx, cursor, cur, &ty, *index, 0, n, &rest[i + 1..]);
        }
        let mut b = Builder::new(ctx.func, cursor);
        let (d, t) = build_link(&mut b, ctx.shader, cur, ctx.mode, &ty, e)?;
        cursor = b.cursor;
        (cur, ty) = (d, t);
    }
    let mut b = Builder::new(ctx.func, cursor);
    let value = match ctx.op {
        Op::Load {
            comps,
            bits,
            access,
        } => b.intrinsic(
            IntrinsicOp::load_deref,
            vec![cur],
            comps,
            vec![access],
            Some((comps, bits)),
        ),
        Op::Store {
            value,
            mask,
            access,
        } => {
            let comps = ctx.func.defs[value].num_components;
            let mut b = Builder::new(ctx.func, cursor);
            b.intrinsic(
                IntrinsicOp::store_deref,
                vec![cur, value],
                comps,
                vec![mask, access],
                None,
            );
            cursor = b.cursor;
            return Some((cursor, None));
        }
    };
    Some((b.cursor, value))
}

/// The if-tree over elements `lo..hi` of the array `parent` indexed by `index`.
#[allow(clippy::too_many_arguments)]
fn ladder(
    ctx: &mut Ctx,
    cursor: Cursor,
    parent: Def,
    pty: &Type,
    index: Def,
    lo: u32,
    hi: u32,
    rest: &[PathElem],
) -> Option<(Cursor, Option<Def>)> {
    if hi <= lo + 1 {
        let mut b = Builder::new(ctx.func, cursor);
        let (d, t) = build_link(
            &mut b,
            ctx.shader,
            parent,
            ctx.mode,
            pty,
            &PathElem::Index(lo),
        )?;
        let c = b.cursor;
        return emit(ctx, c, d, t, rest);
    }
    let mid = lo + (hi - lo) / 2;
    let bits = ctx.func.defs[index].bit_size;
    let mut b = Builder::new(ctx.func, cursor);
    let m = b.load_const(bits, vec![u64::from(mid)]);
    let cond = b.alu_defs(Opcode::ilt, &[index, m]);
    let (then_b, else_b) = b.insert_if(cond)?;
    let after = b.cursor;
    let (tc, tv) = ladder(
        ctx,
        Cursor::EndOf(then_b),
        parent,
        pty,
        index,
        lo,
        mid,
        rest,
    )?;
    let then_last = cursor_block(ctx.func, tc)?;
    let (ec, ev) = ladder(
        ctx,
        Cursor::EndOf(else_b),
        parent,
        pty,
        index,
        mid,
        hi,
        rest,
    )?;
    let else_last = cursor_block(ctx.func, ec)?;
    match (tv, ev) {
        (Some(tv), Some(ev)) => {
            let (c, bsz) = (ctx.func.defs[tv].num_components, ctx.func.defs[tv].bit_size);
            let phi = ctx.func.create_instr(
                InstrKind::Phi(vec![(then_last, tv), (else_last, ev)]),
                Some((c, bsz)),
            );
            let Cursor::StartOf(after_block) = after else {
                return None;
            };
            let mut b = Builder::new(ctx.func, Cursor::StartOf(after_block));
            b.insert(phi);
            Some((b.cursor, ctx.func.instrs[phi].def))
        }
        _ => Some((after, None)),
    }
}
