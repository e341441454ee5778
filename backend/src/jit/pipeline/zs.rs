//! Depth and stencil test and write of one 4×4 block for the key's format, with
//! the semantics of `raster::depth_stencil`: the stencil test first (`ref & mask
//! FUNC stored & mask`), then the depth test (in the integer domain for Z16/Z24,
//! llvmpipe's choice, in f32 for the float formats), then exactly one stencil
//! operation per covered pixel (fail, depth fail or pass) under the write mask,
//! and the depth write of passing pixels.
//!
//! Memory: Z16 rows are 4 × u16; Z24 (X8 and S8) rows 4 × u32 with depth in the
//! high 24 bits and stencil in the low 8; Z32F rows 4 × f32; Z32F_S8 rows 4 ×
//! (f32 depth, u32 whose low byte is stencil). The block is read once and written
//! once (pixels outside the mask are written back unchanged).

use std::mem::offset_of;

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData, Value};
use cranelift_frontend::FunctionBuilder;

use super::abi::{DrawJit, TriJit};
use super::build::Params;
use super::key::{StencilKey, ZsKey};
use super::vecops::{self, splat_i, Quads};
use crate::driver::{CompareFunc, StencilOp};
use crate::format::Format;

fn row_addr(b: &mut FunctionBuilder<'_>, addr: Value, pitch: Value, r: usize) -> Value {
    if r == 0 {
        return addr;
    }
    let off = b.ins().imul_imm_s(pitch, r as i64);
    b.ins().iadd(addr, off)
}

/// Integer comparison `a FUNC b` as lane masks (values below 2^31).
fn int_test(b: &mut FunctionBuilder<'_>, func: CompareFunc, x: Value, y: Value) -> Value {
    let cc = match func {
        CompareFunc::Never => return splat_i(b, 0),
        CompareFunc::Always => return splat_i(b, u32::MAX),
        CompareFunc::Less => IntCC::SignedLessThan,
        CompareFunc::Equal => IntCC::Equal,
        CompareFunc::LessEqual => IntCC::SignedLessThanOrEqual,
        CompareFunc::Greater => IntCC::SignedGreaterThan,
        CompareFunc::NotEqual => IntCC::NotEqual,
        CompareFunc::GreaterEqual => IntCC::SignedGreaterThanOrEqual,
    };
    b.ins().icmp(cc, x, y)
}

/// Float comparison `a FUNC b` with `PartialOrd` semantics (NaN fails all but
/// `!=` and Always).
fn float_test(b: &mut FunctionBuilder<'_>, func: CompareFunc, x: Value, y: Value) -> Value {
    let cc = match func {
        CompareFunc::Never => return splat_i(b, 0),
        CompareFunc::Always => return splat_i(b, u32::MAX),
        CompareFunc::Less => FloatCC::LessThan,
        CompareFunc::Equal => FloatCC::Equal,
        CompareFunc::LessEqual => FloatCC::LessThanOrEqual,
        CompareFunc::Greater => FloatCC::GreaterThan,
        CompareFunc::NotEqual => FloatCC::NotEqual,
        CompareFunc::GreaterEqual => FloatCC::GreaterThanOrEqual,
    };
    vecops::fcmp(b, cc, x, y)
}

/// The value a stencil op writes (before the write mask), `s` and `reference` in
/// 0–255.
fn stencil_op(b: &mut FunctionBuilder<'_>, op: StencilOp, s: Value, reference: Value) -> Value {
    let ff = splat_i(b, 0xff);
    match op {
        StencilOp::Keep => s,
        StencilOp::Zero => splat_i(b, 0),
        StencilOp::Replace => reference,
        StencilOp::Incr => {
            let one = splat_i(b, 1);
            let t = b.ins().iadd(s, one);
            b.ins().smin(t, ff)
        }
        StencilOp::Decr => {
            let one = splat_i(b, 1);
            let zero = splat_i(b, 0);
            let t = b.ins().isub(s, one);
            b.ins().smax(t, zero)
        }
        StencilOp::Invert => b.ins().bxor(s, ff),
        StencilOp::IncrWrap => {
            let one = splat_i(b, 1);
            let t = b.ins().iadd(s, one);
            b.ins().band(t, ff)
        }
        StencilOp::DecrWrap => {
            let one = splat_i(b, 1);
            let t = b.ins().isub(s, one);
            b.ins().band(t, ff)
        }
    }
}

/// One face's stencil result: (test passed, value after the fail op, after the
/// depth-fail op, after the pass op), each already under the write mask.
fn face(
    b: &mut FunctionBuilder<'_>,
    k: &StencilKey,
    s: Value,
    reference: Value,
) -> (Value, Value, Value, Value) {
    let vm = splat_i(b, u32::from(k.value_mask));
    let r = b.ins().band(reference, vm);
    let sv = b.ins().band(s, vm);
    let pass = int_test(b, k.func, r, sv);
    let wm = splat_i(b, u32::from(k.write_mask));
    let mut apply = |op: StencilOp| {
        let n = stencil_op(b, op, s, reference);
        // (s & !wm) | (new & wm)
        b.ins().bitselect(wm, n, s)
    };
    let fail = apply(k.fail_op);
    let zfail = apply(k.zfail_op);
    let zpass = apply(k.zpass_op);
    (pass, fail, zfail, zpass)
}

/// Stored words of the block, per quad: the depth value (integer or f32 bits),
/// the stencil byte, and the raw words to write back around them.
struct Stored {
    depth: Quads,
    stencil: Quads,
    /// Z24: the whole words; Z32F_S8: the stencil words.
    raw: Quads,
}

fn load(b: &mut FunctionBuilder<'_>, fmt: Format, addr: Value, pitch: Value) -> Stored {
    let zero = splat_i(b, 0);
    let mut depth = [zero; 4];
    let mut raw = [zero; 4];
    for r in 0..4 {
        let a = row_addr(b, addr, pitch, r);
        match fmt {
            Format::Z16Unorm => {
                depth[r] = b.ins().uload16x4(vecops::surface_mem(), a, 0);
            }
            Format::Z32FloatS8 => {
                let lo = b.ins().load(types::I32X4, vecops::surface_mem(), a, 0);
                let hi = b.ins().load(types::I32X4, vecops::surface_mem(), a, 16);
                depth[r] = vecops::shuffle(b, lo, hi, [0, 2, 4, 6]);
                raw[r] = vecops::shuffle(b, lo, hi, [1, 3, 5, 7]);
            }
            _ => {
                let w = b.ins().load(types::I32X4, vecops::surface_mem(), a, 0);
                depth[r] = w;
                raw[r] = w;
            }
        }
    }
    let depth = vecops::transpose_block(b, depth);
    let raw = vecops::transpose_block(b, raw);
    let ff = splat_i(b, 0xff);
    let (depth, stencil) = match fmt {
        Format::Z24UnormX8 | Format::Z24UnormS8 => (
            vecops::map(b, raw, |b, w| b.ins().ushr_imm_u(w, 8)),
            vecops::map(b, raw, |b, w| b.ins().band(w, ff)),
        ),
        Format::Z32FloatS8 => (depth, vecops::map(b, raw, |b, w| b.ins().band(w, ff))),
        _ => (depth, [zero; 4]),
    };
    Stored {
        depth,
        stencil,
        raw,
    }
}

fn store(
    b: &mut FunctionBuilder<'_>,
    fmt: Format,
    addr: Value,
    pitch: Value,
    depth: Quads,
    raw: Quads,
) {
    let rows = vecops::transpose_block(b, depth);
    let raw = vecops::transpose_block(b, raw);
    match fmt {
        Format::Z16Unorm => {
            for pair in [0, 2] {
                let packed = b.ins().unarrow(rows[pair], rows[pair + 1]);
                let packed = vecops::cast(b, types::I64X2, packed);
                for k in 0..2 {
                    let v = b.ins().extractlane(packed, k as u8);
                    let a = row_addr(b, addr, pitch, pair + k);
                    b.ins().store(vecops::surface_mem(), v, a, 0);
                }
            }
        }
        Format::Z32FloatS8 => {
            for r in 0..4 {
                let lo = vecops::shuffle(b, rows[r], raw[r], [0, 4, 1, 5]);
                let hi = vecops::shuffle(b, rows[r], raw[r], [2, 6, 3, 7]);
                let a = row_addr(b, addr, pitch, r);
                b.ins().store(vecops::surface_mem(), lo, a, 0);
                b.ins().store(vecops::surface_mem(), hi, a, 16);
            }
        }
        _ => {
            for r in 0..4 {
                let a = row_addr(b, addr, pitch, r);
                b.ins().store(vecops::surface_mem(), rows[r], a, 0);
            }
        }
    }
}

/// Tests the block at `addr` (rows `pitch` bytes apart) for the lanes of `mask`
/// with window depths `z` (clamped `f32x4`), writes what the state writes, and
/// returns the lanes that passed.
pub(super) fn depth_stencil(
    b: &mut FunctionBuilder<'_>,
    k: &ZsKey,
    p: Params,
    addr: Value,
    pitch: Value,
    mask: Quads,
    z: Quads,
) -> Quads {
    let fmt = k.format;
    let st = load(b, fmt, addr, pitch);
    let ones = splat_i(b, u32::MAX);
    // Depth test and the value a passing pixel writes.
    let (dpass, znew) = match k.depth_func {
        None => ([ones; 4], st.depth),
        Some(func) => match fmt.depth_max() {
            Some(max) => {
                let zi = vecops::map(b, z, |b, v| vecops::unorm_depth(b, v, max));
                let mut pass = [ones; 4];
                for q in 0..4 {
                    pass[q] = int_test(b, func, zi[q], st.depth[q]);
                }
                (pass, zi)
            }
            None => {
                let mut pass = [ones; 4];
                let mut bits = [ones; 4];
                for q in 0..4 {
                    let stored = vecops::as_f(b, st.depth[q]);
                    pass[q] = float_test(b, func, z[q], stored);
                    bits[q] = vecops::as_i(b, z[q]);
                }
                (pass, bits)
            }
        },
    };
    let mut out = mask;
    let mut depth_w = st.depth;
    let mut stencil_w = st.stencil;
    // Front-facing mask and the two reference values (dynamic state).
    let faces = if k.stencil.is_some() {
        let flags = MemFlagsData::trusted();
        let f = b
            .ins()
            .load(types::I32, flags, p.tri, offset_of!(TriJit, front) as i32);
        let fm = b.ins().splat(types::I32X4, f);
        let refs = offset_of!(DrawJit, stencil_ref) as i32;
        let rf = b.ins().load(types::I32, flags, p.draw, refs);
        let rb = b.ins().load(types::I32, flags, p.draw, refs + 4);
        let rf = b.ins().band_imm_u(rf, 0xff);
        let rb = b.ins().band_imm_u(rb, 0xff);
        let rf = b.ins().splat(types::I32X4, rf);
        let rb = b.ins().splat(types::I32X4, rb);
        Some((fm, rf, rb))
    } else {
        None
    };
    for q in 0..4 {
        let m = mask[q];
        let s = st.stencil[q];
        let (spass, sfail, szfail, szpass) = match (&k.stencil, faces) {
            (Some([front, back]), Some((fm, rf, rb))) => {
                if front == back {
                    let r = b.ins().bitselect(fm, rf, rb);
                    let f = face(b, front, s, r);
                    (Some(f.0), f.1, f.2, f.3)
                } else {
                    let f = face(b, front, s, rf);
                    let g = face(b, back, s, rb);
                    (
                        Some(b.ins().bitselect(fm, f.0, g.0)),
                        b.ins().bitselect(fm, f.1, g.1),
                        b.ins().bitselect(fm, f.2, g.2),
                        b.ins().bitselect(fm, f.3, g.3),
                    )
                }
            }
            _ => (None, s, s, s),
        };
        let pass = match spass {
            Some(sp) => {
                let both = b.ins().band(sp, dpass[q]);
                b.ins().band(m, both)
            }
            None => b.ins().band(m, dpass[q]),
        };
        out[q] = pass;
        if let Some(sp) = spass {
            let fail = b.ins().band_not(m, sp);
            let zfail = b.ins().band(m, sp);
            let zfail = b.ins().band_not(zfail, dpass[q]);
            let s = b.ins().bitselect(pass, szpass, st.stencil[q]);
            let s = b.ins().bitselect(zfail, szfail, s);
            stencil_w[q] = b.ins().bitselect(fail, sfail, s);
        }
        if k.depth_write {
            depth_w[q] = b.ins().bitselect(pass, znew[q], st.depth[q]);
        }
    }
    if !k.depth_write && k.stencil.is_none() {
        return out;
    }
    let ff = splat_i(b, 0xff);
    match fmt {
        Format::Z24UnormX8 | Format::Z24UnormS8 => {
            let mut words = depth_w;
            for q in 0..4 {
                let d = b.ins().ishl_imm_u(depth_w[q], 8);
                let low = if k.stencil.is_some() {
                    stencil_w[q]
                } else {
                    b.ins().band(st.raw[q], ff)
                };
                words[q] = b.ins().bor(d, low);
            }
            store(b, fmt, addr, pitch, words, words);
        }
        Format::Z32FloatS8 => {
            let mut raw = st.raw;
            if k.stencil.is_some() {
                for q in 0..4 {
                    raw[q] = b.ins().bitselect(ff, stencil_w[q], st.raw[q]);
                }
            }
            store(b, fmt, addr, pitch, depth_w, raw);
        }
        _ => store(b, fmt, addr, pitch, depth_w, depth_w),
    }
    out
}
