//! `lower_io` of compact arrays: `gl_ClipDistance` and `gl_CullDistance` are float
//! arrays packed four elements to a vec4 slot from `VARYING_SLOT_CLIP_DIST0` /
//! `VARYING_SLOT_CULL_DIST0`, like Mesa's `compact` variables. Element `k` lives in
//! slot `k / 4`, component `k % 4`.

use super::offset::*;
use super::plain::{emit_io_load, IoIndices};
use super::*;
use crate::ir::names::alu_type_code;
use crate::ir::names::{VARYING_SLOT_CLIP_DIST0, VARYING_SLOT_CULL_DIST0};
use crate::opcodes::{AluType, Base};

/// `gl_MaxClipDistances` (GL 3.3 minimum, and Mesa's value).
pub(super) const MAX_CLIP_DISTANCES: u32 = 8;

/// Element count of a compact array (gl_ClipDistance / gl_CullDistance: floats packed
/// four to a slot from `CLIP_DIST0`/`CULL_DIST0`, as Mesa's `compact` variables).
pub fn compact_len(stage: Stage, var: &Variable) -> Option<u32> {
    if !matches!(var.mode, VarMode::ShaderIn | VarMode::ShaderOut)
        || !matches!(
            var.location,
            VARYING_SLOT_CLIP_DIST0 | VARYING_SLOT_CULL_DIST0
        )
    {
        return None;
    }
    match io_type(stage, var) {
        // An unsized array (a geometry shader's `gl_in[].gl_ClipDistance` the linker
        // left unsized) spans the most clip distances GL allows.
        Type::Array(e, 0) if *e == Type::Scalar(BaseType::Float) => Some(MAX_CLIP_DISTANCES),
        Type::Array(e, n) if *e == Type::Scalar(BaseType::Float) => Some(n),
        _ => None,
    }
}

/// Lowers an element access of a compact array (gl_ClipDistance[i]): element `k` lives
/// in slot `k / 4`, component `k % 4`. A dynamic index reads every slot and selects
/// with `bcsel`; a dynamic store reads each slot back, blends and stores it whole.
#[allow(clippy::too_many_arguments)]
pub(super) fn lower_compact_access(
    func: &mut FunctionImpl,
    uses: &mut Uses,
    instr: Instr,
    intr: &Intrinsic,
    var: &Variable,
    vertex: Option<Def>,
    links: &[Link],
    is_store: bool,
    len: u32,
    cx: &Ctx,
) -> bool {
    let [Link::Array(idx)] = links else {
        return false;
    };
    let idx = *idx;
    if func.defs[idx].bit_size != 32 || func.defs[idx].num_components != 1 {
        return false;
    }
    let code = alu_type_code(AluType {
        base: Base::Float,
        bits: 32,
    });
    let frac = u32::from(var.location_frac);
    let slot_io = |s: u32| IoIndices {
        base: var.driver_location.saturating_add(s),
        range: 1,
        component: frac,
        code,
        io_sem: ((var.location as u32).saturating_add(s) & 0xffff) | (1 << 16),
    };
    let nslots = len.div_ceil(4).min(64);
    let slot_comps = |s: u32| (len - 4 * s).min(4) as u8;
    let konst = const_u32(func, idx);
    if konst.is_some_and(|k| k >= len) {
        return false;
    }
    let mut b = Builder::new(func, Cursor::Before(instr));
    let zero = b.imm_i32(0);
    if is_store {
        let (Some(&value), Some(&wrmask)) = (intr.srcs.get(1), intr.indices.first()) else {
            return false;
        };
        if wrmask & 1 == 0 {
            func.remove_instr(instr);
            return true;
        }
        match konst {
            Some(k) => {
                let mut io = slot_io(k / 4);
                io.component = frac + k % 4;
                b.intrinsic(
                    IntrinsicOp::store_output,
                    vec![value, zero],
                    1,
                    vec![io.base, 1, 1, io.component, code, io.io_sem],
                    None,
                );
            }
            None => {
                for s in 0..nslots {
                    let n = slot_comps(s);
                    let io = slot_io(s);
                    let Some(old) = emit_io_load(&mut b, cx.stage, var, vertex, zero, n, io, true)
                    else {
                        return false;
                    };
                    let v = b.vector_insert(old, value, idx, 4 * s);
                    b.intrinsic(
                        IntrinsicOp::store_output,
                        vec![v, zero],
                        n,
                        vec![io.base, 1, (1u32 << n) - 1, io.component, code, io.io_sem],
                        None,
                    );
                }
            }
        }
        func.remove_instr(instr);
        return true;
    }
    let Some(old) = func.instrs[instr].def else {
        return false;
    };
    let mut b = Builder::new(func, Cursor::Before(instr));
    let value = match konst {
        Some(k) => {
            let mut io = slot_io(k / 4);
            io.component = frac + k % 4;
            emit_io_load(&mut b, cx.stage, var, vertex, zero, 1, io, true)
        }
        None => {
            let mut acc: Option<Def> = None;
            for s in 0..nslots {
                let n = slot_comps(s);
                let Some(v) =
                    emit_io_load(&mut b, cx.stage, var, vertex, zero, n, slot_io(s), true)
                else {
                    return false;
                };
                acc = Some(b.vector_extract_from(acc, v, idx, 4 * s));
            }
            acc
        }
    };
    let Some(value) = value else {
        return false;
    };
    finish_load(func, uses, instr, old, value, false);
    true
}
