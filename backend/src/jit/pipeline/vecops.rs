//! Small Cranelift helpers of the pipeline emitters: constants, bitcasts, the
//! quad ↔ row reordering of a 4×4 block, and float operations with the exact
//! semantics of the Rust per-pixel code they replace (`f32::clamp`, `f32::max`,
//! `f32::min` as x86-64 compiles them, the unorm conversions of
//! [`crate::format`], IEEE half floats).
//!
//! A block is held as four vectors, one per 2×2 quad (lane `4q + p` of
//! [`crate::exec`] is lane `p` of vector `q`); surfaces store it as four rows of
//! four pixels. Row `r` takes the bottom (`r` even) or top (`r` odd) half of two
//! horizontally adjacent quads, so both directions are the same two shuffles.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData, Value};
use cranelift_frontend::FunctionBuilder;

use crate::jit::emit::view;

/// Flags of surface accesses: in bounds (proven per block) but not aligned, so
/// SSE instructions never take them as aligned memory operands.
pub(crate) fn surface_mem() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

/// One vector per quad (or per row) of a block.
pub(crate) type Quads = [Value; 4];

/// X offset inside the block of each lane of quad `q`.
pub(crate) fn lane_x(q: usize) -> [u32; 4] {
    let x = 2 * (q as u32 & 1);
    [x, x + 1, x, x + 1]
}

/// Y offset inside the block of each lane of quad `q`.
pub(crate) fn lane_y(q: usize) -> [u32; 4] {
    let y = 2 * (q as u32 >> 1);
    [y, y, y + 1, y + 1]
}

/// An `i32x4` constant.
pub(crate) fn iconst4(b: &mut FunctionBuilder<'_>, w: [u32; 4]) -> Value {
    let bytes: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
    let c = b.func.dfg.constants.insert(bytes.into());
    b.ins().vconst(types::I32X4, c)
}

/// An `f32x4` constant.
pub(crate) fn fconst4(b: &mut FunctionBuilder<'_>, w: [f32; 4]) -> Value {
    let v = iconst4(b, w.map(f32::to_bits));
    as_f(b, v)
}

/// Every lane `w` (`i32x4`).
pub(crate) fn splat_i(b: &mut FunctionBuilder<'_>, w: u32) -> Value {
    iconst4(b, [w; 4])
}

/// Every lane `x` (`f32x4`).
pub(crate) fn splat_f(b: &mut FunctionBuilder<'_>, x: f32) -> Value {
    fconst4(b, [x; 4])
}

/// `i32x4` bits as `f32x4`.
pub(crate) fn as_f(b: &mut FunctionBuilder<'_>, v: Value) -> Value {
    view(b, v, types::F32X4)
}

/// Any 128-bit vector as `i32x4`.
pub(crate) fn as_i(b: &mut FunctionBuilder<'_>, v: Value) -> Value {
    view(b, v, types::I32X4)
}

/// Any 128-bit vector as `ty`.
pub(crate) fn cast(b: &mut FunctionBuilder<'_>, ty: types::Type, v: Value) -> Value {
    view(b, v, ty)
}

/// 32-bit lanes of `x` (indices 0–3) and `y` (4–7) picked by `idx`.
pub(crate) fn shuffle(b: &mut FunctionBuilder<'_>, x: Value, y: Value, idx: [u8; 4]) -> Value {
    let mut bytes = [0u8; 16];
    for (k, &i) in idx.iter().enumerate() {
        for j in 0..4 {
            bytes[k * 4 + j] = i * 4 + j as u8;
        }
    }
    let xb = cast(b, types::I8X16, x);
    let yb = cast(b, types::I8X16, y);
    let imm = b.func.dfg.immediates.push(bytes.to_vec().into());
    let r = b.ins().shuffle(xb, yb, imm);
    as_i(b, r)
}

/// Quads → rows (and rows → quads: the same permutation).
pub(crate) fn transpose_block(b: &mut FunctionBuilder<'_>, v: Quads) -> Quads {
    [
        shuffle(b, v[0], v[1], [0, 1, 4, 5]),
        shuffle(b, v[0], v[1], [2, 3, 6, 7]),
        shuffle(b, v[2], v[3], [0, 1, 4, 5]),
        shuffle(b, v[2], v[3], [2, 3, 6, 7]),
    ]
}

/// Applies `f` to each of four vectors.
pub(crate) fn map(
    b: &mut FunctionBuilder<'_>,
    v: Quads,
    mut f: impl FnMut(&mut FunctionBuilder<'_>, Value) -> Value,
) -> Quads {
    [f(b, v[0]), f(b, v[1]), f(b, v[2]), f(b, v[3])]
}

/// Lane masks of the 16 bits of `bits` (an `i32`).
pub(crate) fn bit_masks(b: &mut FunctionBuilder<'_>, bits: Value) -> Quads {
    let sel = iconst4(b, [1, 2, 4, 8]);
    let zero = splat_i(b, 0);
    let mut out = [zero; 4];
    for (q, o) in out.iter_mut().enumerate() {
        let s = b.ins().ushr_imm_u(bits, 4 * q as i64);
        let v = b.ins().splat(types::I32X4, s);
        let m = b.ins().band(v, sel);
        *o = b.ins().icmp(IntCC::NotEqual, m, zero);
    }
    out
}

/// The 16 bits (an `i32`) of lane masks.
pub(crate) fn mask_bits(b: &mut FunctionBuilder<'_>, m: Quads) -> Value {
    let mut acc = b.ins().vhigh_bits(types::I32, m[0]);
    for (q, &v) in m.iter().enumerate().skip(1) {
        let h = b.ins().vhigh_bits(types::I32, v);
        let h = b.ins().ishl_imm_u(h, 4 * q as i64);
        acc = b.ins().bor(acc, h);
    }
    acc
}

/// `x & !y` per quad.
pub(crate) fn and_not(b: &mut FunctionBuilder<'_>, x: Quads, y: Quads) -> Quads {
    [
        b.ins().band_not(x[0], y[0]),
        b.ins().band_not(x[1], y[1]),
        b.ins().band_not(x[2], y[2]),
        b.ins().band_not(x[3], y[3]),
    ]
}

/// `m ? x : y` per lane (`m` lane masks).
pub(crate) fn select(b: &mut FunctionBuilder<'_>, m: Value, x: Value, y: Value) -> Value {
    let ty = b.func.dfg.value_type(x);
    let (xi, yi) = (as_i(b, x), as_i(b, y));
    let r = b.ins().bitselect(m, xi, yi);
    cast(b, ty, r)
}

/// Lane mask of a float comparison.
pub(crate) fn fcmp(b: &mut FunctionBuilder<'_>, cc: FloatCC, x: Value, y: Value) -> Value {
    let r = b.ins().fcmp(cc, x, y);
    as_i(b, r)
}

/// x86 `maxps x, y`: `x > y ? x : y`, so a NaN in either gives `y` (written as
/// the pattern Cranelift lowers to one `maxps`).
pub(crate) fn pmax(b: &mut FunctionBuilder<'_>, x: Value, y: Value) -> Value {
    let (x, y) = (as_f(b, x), as_f(b, y));
    let m = b.ins().fcmp(FloatCC::LessThan, y, x);
    let m = cast(b, types::F32X4, m);
    b.ins().bitselect(m, x, y)
}

/// x86 `minps x, y`: `x < y ? x : y`, so a NaN in either gives `y`.
pub(crate) fn pmin(b: &mut FunctionBuilder<'_>, x: Value, y: Value) -> Value {
    let (x, y) = (as_f(b, x), as_f(b, y));
    let m = b.ins().fcmp(FloatCC::LessThan, x, y);
    let m = cast(b, types::F32X4, m);
    b.ins().bitselect(m, x, y)
}

/// `f32::clamp(x, lo, hi)`: below `lo` gives `lo`, above `hi` gives `hi`, NaN stays
/// (`maxps lo, x` keeps a NaN `x`, then `minps hi, ·`).
pub(crate) fn clamp(b: &mut FunctionBuilder<'_>, x: Value, lo: Value, hi: Value) -> Value {
    let t = pmax(b, lo, x);
    pmin(b, hi, t)
}

/// `f32::max(x, y)` as x86-64 computes it: a NaN `x` gives `y`, otherwise
/// `y > x ? y : x` (so a NaN `y` gives `x`, and equal zeros give `x`).
pub(crate) fn rust_max(b: &mut FunctionBuilder<'_>, x: Value, y: Value) -> Value {
    let m = pmax(b, y, x);
    let nan = fcmp(b, FloatCC::Unordered, x, x);
    select(b, nan, y, m)
}

/// `f32::min(x, y)` as x86-64 computes it (see [`rust_max`]).
pub(crate) fn rust_min(b: &mut FunctionBuilder<'_>, x: Value, y: Value) -> Value {
    let m = pmin(b, y, x);
    let nan = fcmp(b, FloatCC::Unordered, x, x);
    select(b, nan, y, m)
}

/// `x` clamped to [0, 1] with NaN giving 0 (`maxps x, 0` then `minps ·, 1`).
/// Only the sign of a zero result can differ from `x.max(0.0).min(1.0)`, which
/// no unorm conversion sees.
fn saturate(b: &mut FunctionBuilder<'_>, x: Value) -> Value {
    let (zero, one) = (splat_f(b, 0.0), splat_f(b, 1.0));
    let c = pmax(b, x, zero);
    pmin(b, c, one)
}

/// `unorm8` of each lane ([`crate::format`]): `(clamp(x, 0, 1) * 255 + 0.5) as u8`
/// (NaN gives 0, as the saturating cast of a NaN does), as `i32` lanes.
pub(crate) fn unorm8(b: &mut FunctionBuilder<'_>, x: Value) -> Value {
    let c = saturate(b, x);
    let k255 = splat_f(b, 255.0);
    let half = splat_f(b, 0.5);
    let t = b.ins().fmul(c, k255);
    let t = b.ins().fadd(t, half);
    // In [0.5, 255.5]: truncation is the cast.
    b.ins().x86_cvtt2dq(types::I32X4, t)
}

/// The RGBA8 fast path's rounding: `x.max(0.0).min(1.0) * 255.0 + 1.5 × 2^23`, low
/// 8 bits of the result (round to nearest even; NaN gives 0), as `i32` lanes.
pub(crate) fn unorm8_fast(b: &mut FunctionBuilder<'_>, x: Value) -> Value {
    let c = saturate(b, x);
    let k255 = splat_f(b, 255.0);
    let magic = splat_f(b, 12_582_912.0);
    let t = b.ins().fmul(c, k255);
    let t = b.ins().fadd(t, magic);
    let t = as_i(b, t);
    let ff = splat_i(b, 0xff);
    b.ins().band(t, ff)
}

/// Bytes (`i32` lanes 0–255) to floats: `byte as f32 * (1.0 / 255.0)`.
pub(crate) fn from_unorm8(b: &mut FunctionBuilder<'_>, v: Value) -> Value {
    let f = b.ins().fcvt_from_sint(types::F32X4, v);
    let k = splat_f(b, 1.0f32 / 255.0);
    b.ins().fmul(f, k)
}

/// [`crate::format::unorm`]`(x, max)` of each lane (`i32` lanes): NaN gives 0,
/// otherwise `(clamp(x, 0, 1) as f64 * max + 0.5) as u32`, computed in f64 (exact:
/// the product has at most 48 significant bits).
pub(crate) fn unorm_depth(b: &mut FunctionBuilder<'_>, x: Value, max: u32) -> Value {
    let c = saturate(b, x);
    let kmax = b.ins().f64const(f64::from(max));
    let kmax = b.ins().splat(types::F64X2, kmax);
    let khalf = b.ins().f64const(0.5);
    let khalf = b.ins().splat(types::F64X2, khalf);
    let hi = shuffle(b, c, c, [2, 3, 2, 3]);
    let hi = as_f(b, hi);
    let mut halves = [c, hi];
    for h in halves.iter_mut() {
        let d = b.ins().fvpromote_low(*h);
        let d = b.ins().fmul(d, kmax);
        let d = b.ins().fadd(d, khalf);
        let d = b.ins().floor(d);
        // An integer below 2^25: exact in f32.
        *h = b.ins().fvdemote(d);
    }
    let r = shuffle(b, halves[0], halves[1], [0, 1, 4, 5]);
    let r = as_f(b, r);
    b.ins().x86_cvtt2dq(types::I32X4, r)
}

/// IEEE binary16 bits (low 16 bits of `i32` lanes) to f32, exactly, without
/// arithmetic on denormals (so flush-to-zero modes cannot change it).
pub(crate) fn f16_to_f32(b: &mut FunctionBuilder<'_>, h: Value) -> Value {
    let k = |b: &mut FunctionBuilder<'_>, w: u32| splat_i(b, w);
    let m7fff = k(b, 0x7fff);
    let abs = b.ins().band(h, m7fff);
    let sign = b.ins().band_not(h, m7fff);
    let sign = b.ins().ishl_imm_u(sign, 16);
    // Normal: rebias the exponent (112 << 23 after the shift by 13).
    let sh = b.ins().ishl_imm_u(abs, 13);
    let bias = k(b, 112 << 23);
    let normal = b.ins().iadd(sh, bias);
    // Inf/NaN: all exponent bits.
    let inf_bits = k(b, 0x7f80_0000);
    let special = b.ins().bor(sh, inf_bits);
    // A NaN is made quiet (as `half` and F16C do).
    let lim_inf = k(b, 0x7c00);
    let is_nan = b.ins().icmp(IntCC::SignedGreaterThan, abs, lim_inf);
    let quiet = k(b, 0x0040_0000);
    let quiet = b.ins().band(is_nan, quiet);
    let special = b.ins().bor(special, quiet);
    // Denormal or zero: mantissa × 2^-24 (exact).
    let mant = b.ins().fcvt_from_sint(types::F32X4, abs);
    let scale = splat_f(b, f32::from_bits(0x3380_0000)); // 2^-24
    let den = b.ins().fmul(mant, scale);
    let den = as_i(b, den);
    let lim_den = k(b, 0x0400);
    let is_den = b.ins().icmp(IntCC::SignedLessThan, abs, lim_den);
    let is_special = b.ins().icmp(IntCC::SignedGreaterThanOrEqual, abs, lim_inf);
    let r = b.ins().bitselect(is_den, den, normal);
    let r = b.ins().bitselect(is_special, special, r);
    let r = b.ins().bor(r, sign);
    as_f(b, r)
}

/// f32 to IEEE binary16 bits (`i32` lanes), rounding to nearest even as
/// `half::f16::from_f32` does: overflow gives infinity, a NaN keeps its top
/// mantissa bits and is made quiet. The only float operation adds to a normal
/// number, so flush-to-zero modes cannot change it.
pub(crate) fn f32_to_f16(b: &mut FunctionBuilder<'_>, x: Value) -> Value {
    let k = |b: &mut FunctionBuilder<'_>, w: u32| splat_i(b, w);
    let bits = as_i(b, x);
    let m7 = k(b, 0x7fff_ffff);
    let abs = b.ins().band(bits, m7);
    let sign = b.ins().band_not(bits, m7);
    let sign = b.ins().ushr_imm_u(sign, 16);
    // Infinity or NaN.
    let inf = k(b, 0x7f80_0000);
    let is_nan = b.ins().icmp(IntCC::SignedGreaterThan, abs, inf);
    let nan_man = b.ins().ushr_imm_u(abs, 13);
    let m3ff = k(b, 0x3ff);
    let nan_man = b.ins().band(nan_man, m3ff);
    let qnan = k(b, 0x7e00);
    let nan = b.ins().bor(nan_man, qnan);
    let k7c00 = k(b, 0x7c00);
    // At or above 65536 (or infinity): infinity (65520..65536 round up below).
    let f16max = k(b, (127 + 16) << 23);
    let big = b.ins().icmp(IntCC::SignedGreaterThanOrEqual, abs, f16max);
    // Normal result: rebias, round to nearest even on bit 13.
    let odd = b.ins().ushr_imm_u(abs, 13);
    let one = k(b, 1);
    let odd = b.ins().band(odd, one);
    let rebias = k(b, ((15u32.wrapping_sub(127)) << 23).wrapping_add(0xfff));
    let n = b.ins().iadd(abs, rebias);
    let n = b.ins().iadd(n, odd);
    let n = b.ins().ushr_imm_u(n, 13);
    // Denormal result or zero: add 0.5 so the 10 mantissa bits land at the bottom
    // (the float addition rounds to nearest even).
    let magic_bits = ((127 - 15) + (23 - 10) + 1) << 23;
    let magic = splat_f(b, f32::from_bits(magic_bits));
    let absf = as_f(b, abs);
    let d = b.ins().fadd(absf, magic);
    let d = as_i(b, d);
    let mb = k(b, magic_bits);
    let d = b.ins().isub(d, mb);
    let lim_norm = k(b, 113 << 23);
    let is_den = b.ins().icmp(IntCC::SignedLessThan, abs, lim_norm);
    let r = b.ins().bitselect(is_den, d, n);
    let r = b.ins().bitselect(big, k7c00, r);
    let r = b.ins().bitselect(is_nan, nan, r);
    b.ins().bor(r, sign)
}
