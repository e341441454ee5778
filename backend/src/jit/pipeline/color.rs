//! Blending, colour masks and the store of one render target for one 4×4 block,
//! with the semantics of `raster::write_color` (GL 4.6 §17.3.6 blending,
//! §17.4.2 colour masks):
//!
//! * RGBA8 without blending and with every channel written: the rasterizer's fast
//!   path (clamp, round to nearest even, pack), no read of the target;
//! * otherwise: sources clamped to [0, 1] for normalized targets, the target read
//!   and decoded when blending or masking needs it, every equation and factor
//!   (dual source included) per channel, masked channels keeping the target's
//!   value, and the format's encoding (unorm8 rounding, IEEE half, f32).
//!
//! Only covered pixels change: each row is written back merged with its old
//! contents under the lane mask.

use std::mem::offset_of;

use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData, Value};
use cranelift_frontend::FunctionBuilder;

use super::abi::DrawJit;
use super::key::ColorKey;
use super::vecops::{self, splat_f, splat_i, Quads};
use crate::driver::{BlendEquation, BlendFactor, RtBlend};
use crate::format::Format;

fn row_addr(b: &mut FunctionBuilder<'_>, addr: Value, pitch: Value, r: usize) -> Value {
    if r == 0 {
        return addr;
    }
    let off = b.ins().imul_imm_s(pitch, r as i64);
    b.ins().iadd(addr, off)
}

fn flags() -> MemFlagsData {
    vecops::surface_mem()
}

/// Reads the block's rows and decodes them to per-channel float quads
/// (`Format::decode_rgba`).
fn load(b: &mut FunctionBuilder<'_>, fmt: Format, addr: Value, pitch: Value) -> [Quads; 4] {
    let zero = splat_f(b, 0.0);
    let one = splat_f(b, 1.0);
    let mut rows: [Quads; 4] = [[zero; 4], [zero; 4], [zero; 4], [one; 4]];
    let ff = splat_i(b, 0xff);
    for r in 0..4 {
        let a = row_addr(b, addr, pitch, r);
        match fmt {
            Format::Rgba8Unorm => {
                let w = b.ins().load(types::I32X4, flags(), a, 0);
                for (c, ch) in rows.iter_mut().enumerate() {
                    let v = b.ins().ushr_imm_u(w, 8 * c as i64);
                    let v = b.ins().band(v, ff);
                    ch[r] = vecops::from_unorm8(b, v);
                }
            }
            Format::R8Unorm | Format::Rg8Unorm => {
                // Widen the row's bytes to one 32-bit lane per pixel.
                let lanes = if fmt == Format::R8Unorm {
                    let w = b.ins().load(types::I32, flags(), a, 0);
                    let v = b.ins().scalar_to_vector(types::I32X4, w);
                    let v = vecops::cast(b, types::I8X16, v);
                    let v = b.ins().uwiden_low(v);
                    b.ins().uwiden_low(v)
                } else {
                    let w = b.ins().load(types::I64, flags(), a, 0);
                    let v = b.ins().scalar_to_vector(types::I64X2, w);
                    let v = vecops::cast(b, types::I16X8, v);
                    b.ins().uwiden_low(v)
                };
                let r0 = b.ins().band(lanes, ff);
                rows[0][r] = vecops::from_unorm8(b, r0);
                if fmt == Format::Rg8Unorm {
                    let g = b.ins().ushr_imm_u(lanes, 8);
                    rows[1][r] = vecops::from_unorm8(b, g);
                }
            }
            Format::Rgba16Float => {
                let lo = b.ins().load(types::I32X4, flags(), a, 0);
                let hi = b.ins().load(types::I32X4, flags(), a, 16);
                let rg = vecops::shuffle(b, lo, hi, [0, 2, 4, 6]);
                let ba = vecops::shuffle(b, lo, hi, [1, 3, 5, 7]);
                let m = splat_i(b, 0xffff);
                for (c, pair) in [(0, rg), (1, rg), (2, ba), (3, ba)] {
                    let h = if c % 2 == 0 {
                        b.ins().band(pair, m)
                    } else {
                        b.ins().ushr_imm_u(pair, 16)
                    };
                    rows[c][r] = vecops::f16_to_f32(b, h);
                }
            }
            Format::Rgba32Float => {
                let px: [Value; 4] =
                    [0, 16, 32, 48].map(|o| b.ins().load(types::I32X4, flags(), a, o));
                let t0 = vecops::shuffle(b, px[0], px[1], [0, 4, 1, 5]);
                let t1 = vecops::shuffle(b, px[2], px[3], [0, 4, 1, 5]);
                let t2 = vecops::shuffle(b, px[0], px[1], [2, 6, 3, 7]);
                let t3 = vecops::shuffle(b, px[2], px[3], [2, 6, 3, 7]);
                let ch = [
                    vecops::shuffle(b, t0, t1, [0, 1, 4, 5]),
                    vecops::shuffle(b, t0, t1, [2, 3, 6, 7]),
                    vecops::shuffle(b, t2, t3, [0, 1, 4, 5]),
                    vecops::shuffle(b, t2, t3, [2, 3, 6, 7]),
                ];
                for c in 0..4 {
                    rows[c][r] = vecops::as_f(b, ch[c]);
                }
            }
            _ => {}
        }
    }
    rows.map(|ch| {
        let q = vecops::transpose_block(b, ch);
        vecops::map(b, q, vecops::as_f)
    })
}

/// `m ? new : old` of a row, stored at `a + off`.
fn merge_store(b: &mut FunctionBuilder<'_>, m: Value, new: Value, a: Value, off: i32) {
    let old = b.ins().load(types::I32X4, flags(), a, off);
    let v = b.ins().bitselect(m, new, old);
    b.ins().store(flags(), v, a, off);
}

/// Encodes per-channel float quads (`Format::encode_rgba`) and stores the rows
/// under the mask.
fn encode_store(
    b: &mut FunctionBuilder<'_>,
    fmt: Format,
    addr: Value,
    pitch: Value,
    o: [Quads; 4],
    mask: Quads,
) {
    let rmask = vecops::transpose_block(b, mask);
    let ncomp = fmt.color_components();
    // Per channel, row layout, encoded to the channel's integer bits.
    let enc: Vec<Quads> = (0..ncomp)
        .map(|c| {
            let q = match fmt {
                Format::Rgba16Float => vecops::map(b, o[c], vecops::f32_to_f16),
                Format::Rgba32Float => vecops::map(b, o[c], vecops::as_i),
                _ => vecops::map(b, o[c], vecops::unorm8),
            };
            vecops::transpose_block(b, q)
        })
        .collect();
    for r in 0..4 {
        let a = row_addr(b, addr, pitch, r);
        let m = rmask[r];
        match fmt {
            Format::Rgba8Unorm => {
                let mut w = enc[0][r];
                for (c, ch) in enc.iter().enumerate().skip(1) {
                    let v = b.ins().ishl_imm_u(ch[r], 8 * c as i64);
                    w = b.ins().bor(w, v);
                }
                merge_store(b, m, w, a, 0);
            }
            Format::R8Unorm => {
                let v16 = b.ins().unarrow(enc[0][r], enc[0][r]);
                let v8 = b.ins().unarrow(v16, v16);
                let v = vecops::as_i(b, v8);
                let new = b.ins().extractlane(v, 0);
                let m16 = b.ins().snarrow(m, m);
                let m8 = b.ins().snarrow(m16, m16);
                let m8 = vecops::as_i(b, m8);
                let bm = b.ins().extractlane(m8, 0);
                let old = b.ins().load(types::I32, flags(), a, 0);
                let v = b.ins().bitselect(bm, new, old);
                b.ins().store(flags(), v, a, 0);
            }
            Format::Rg8Unorm => {
                let g = b.ins().ishl_imm_u(enc[1][r], 8);
                let w = b.ins().bor(enc[0][r], g);
                let v16 = b.ins().unarrow(w, w);
                let v = vecops::cast(b, types::I64X2, v16);
                let new = b.ins().extractlane(v, 0);
                let m16 = b.ins().snarrow(m, m);
                let m16 = vecops::cast(b, types::I64X2, m16);
                let bm = b.ins().extractlane(m16, 0);
                let old = b.ins().load(types::I64, flags(), a, 0);
                let v = b.ins().bitselect(bm, new, old);
                b.ins().store(flags(), v, a, 0);
            }
            Format::Rgba16Float => {
                let g = b.ins().ishl_imm_u(enc[1][r], 16);
                let rg = b.ins().bor(enc[0][r], g);
                let a16 = b.ins().ishl_imm_u(enc[3][r], 16);
                let ba = b.ins().bor(enc[2][r], a16);
                let lo = vecops::shuffle(b, rg, ba, [0, 4, 1, 5]);
                let hi = vecops::shuffle(b, rg, ba, [2, 6, 3, 7]);
                let mlo = vecops::shuffle(b, m, m, [0, 0, 1, 1]);
                let mhi = vecops::shuffle(b, m, m, [2, 2, 3, 3]);
                merge_store(b, mlo, lo, a, 0);
                merge_store(b, mhi, hi, a, 16);
            }
            Format::Rgba32Float => {
                let (cr, cg, cb, ca) = (enc[0][r], enc[1][r], enc[2][r], enc[3][r]);
                let t0 = vecops::shuffle(b, cr, cg, [0, 4, 1, 5]);
                let t1 = vecops::shuffle(b, cb, ca, [0, 4, 1, 5]);
                let t2 = vecops::shuffle(b, cr, cg, [2, 6, 3, 7]);
                let t3 = vecops::shuffle(b, cb, ca, [2, 6, 3, 7]);
                let px = [
                    vecops::shuffle(b, t0, t1, [0, 1, 4, 5]),
                    vecops::shuffle(b, t0, t1, [2, 3, 6, 7]),
                    vecops::shuffle(b, t2, t3, [0, 1, 4, 5]),
                    vecops::shuffle(b, t2, t3, [2, 3, 6, 7]),
                ];
                for (k, v) in px.iter().enumerate() {
                    let lane = k as u8;
                    let mk = vecops::shuffle(b, m, m, [lane; 4]);
                    merge_store(b, mk, *v, a, 16 * k as i32);
                }
            }
            _ => {}
        }
    }
}

/// The fast path: RGBA8, no blending, every channel written.
fn store_rgba8_fast(
    b: &mut FunctionBuilder<'_>,
    addr: Value,
    pitch: Value,
    src: [Quads; 4],
    mask: Quads,
) {
    let mut px = [splat_i(b, 0); 4];
    for (c, ch) in src.iter().enumerate() {
        for q in 0..4 {
            let f = vecops::as_f(b, ch[q]);
            let v = vecops::unorm8_fast(b, f);
            let v = if c == 0 {
                v
            } else {
                b.ins().ishl_imm_u(v, 8 * c as i64)
            };
            px[q] = if c == 0 { v } else { b.ins().bor(px[q], v) };
        }
    }
    let rows = vecops::transpose_block(b, px);
    let rmask = vecops::transpose_block(b, mask);
    for r in 0..4 {
        let a = row_addr(b, addr, pitch, r);
        merge_store(b, rmask[r], rows[r], a, 0);
    }
}

/// Inputs of the blend equations of one lane group.
struct BlendIn {
    s: [Value; 4],
    s1: [Value; 4],
    d: [Value; 4],
    k: [Value; 4],
}

fn factor(b: &mut FunctionBuilder<'_>, f: BlendFactor, c: usize, x: &BlendIn) -> Value {
    use BlendFactor::*;
    let inv = |b: &mut FunctionBuilder<'_>, v: Value| {
        let one = splat_f(b, 1.0);
        b.ins().fsub(one, v)
    };
    match f {
        Zero => splat_f(b, 0.0),
        One => splat_f(b, 1.0),
        SrcColor => x.s[c],
        OneMinusSrcColor => inv(b, x.s[c]),
        DstColor => x.d[c],
        OneMinusDstColor => inv(b, x.d[c]),
        SrcAlpha => x.s[3],
        OneMinusSrcAlpha => inv(b, x.s[3]),
        DstAlpha => x.d[3],
        OneMinusDstAlpha => inv(b, x.d[3]),
        ConstantColor => x.k[c],
        OneMinusConstantColor => inv(b, x.k[c]),
        ConstantAlpha => x.k[3],
        OneMinusConstantAlpha => inv(b, x.k[3]),
        SrcAlphaSaturate => {
            if c == 3 {
                splat_f(b, 1.0)
            } else {
                let t = inv(b, x.d[3]);
                vecops::rust_min(b, x.s[3], t)
            }
        }
        Src1Color => x.s1[c],
        OneMinusSrc1Color => inv(b, x.s1[c]),
        Src1Alpha => x.s1[3],
        OneMinusSrc1Alpha => inv(b, x.s1[3]),
    }
}

/// Channel `c` of `raster::blend_pixel`.
fn blend_channel(b: &mut FunctionBuilder<'_>, bl: &RtBlend, c: usize, x: &BlendIn) -> Value {
    let (eq, sf, df) = if c < 3 {
        (bl.rgb_eq, bl.src_rgb, bl.dst_rgb)
    } else {
        (bl.alpha_eq, bl.src_alpha, bl.dst_alpha)
    };
    match eq {
        BlendEquation::Min => vecops::rust_min(b, x.s[c], x.d[c]),
        BlendEquation::Max => vecops::rust_max(b, x.s[c], x.d[c]),
        _ => {
            let fs = factor(b, sf, c, x);
            let a = b.ins().fmul(x.s[c], fs);
            let fd = factor(b, df, c, x);
            let bb = b.ins().fmul(x.d[c], fd);
            match eq {
                BlendEquation::Add => b.ins().fadd(a, bb),
                BlendEquation::Subtract => b.ins().fsub(a, bb),
                _ => b.ins().fsub(bb, a),
            }
        }
    }
}

/// Blends (or copies) `src` (output words, `i32x4` per quad and channel) into the
/// target block at `addr` for the lanes of `mask`.
#[allow(clippy::too_many_arguments)]
pub(super) fn store(
    b: &mut FunctionBuilder<'_>,
    key: &ColorKey,
    draw: Value,
    addr: Value,
    pitch: Value,
    src: [Quads; 4],
    src1: Option<[Quads; 4]>,
    mask: Quads,
) {
    let fmt = key.format;
    let bl = &key.blend;
    let cmask = bl.color_mask & 0xf;
    if fmt == Format::Rgba8Unorm && !bl.enabled && cmask == 0xf {
        store_rgba8_fast(b, addr, pitch, src, mask);
        return;
    }
    let unorm = matches!(fmt, Format::Rgba8Unorm | Format::R8Unorm | Format::Rg8Unorm);
    let (zero, one) = (splat_f(b, 0.0), splat_f(b, 1.0));
    let cl = |b: &mut FunctionBuilder<'_>, v: Value| {
        let v = vecops::as_f(b, v);
        if unorm {
            vecops::clamp(b, v, zero, one)
        } else {
            v
        }
    };
    let s: [Quads; 4] = src.map(|ch| vecops::map(b, ch, cl));
    let need_dst = bl.enabled || cmask != 0xf;
    let d = if need_dst {
        load(b, fmt, addr, pitch)
    } else {
        [[zero; 4]; 4]
    };
    let mut o = s;
    if bl.enabled {
        let k: [Value; 4] = [0usize, 1, 2, 3].map(|c| {
            let v = b.ins().load(
                types::F32,
                flags(),
                draw,
                (offset_of!(DrawJit, blend_color) + 4 * c) as i32,
            );
            let v = b.ins().splat(types::F32X4, v);
            cl(b, v)
        });
        let s1: [Quads; 4] = match src1 {
            Some(s1) => s1.map(|ch| vecops::map(b, ch, cl)),
            None => [[zero; 4]; 4],
        };
        let ncomp = fmt.color_components();
        for q in 0..4 {
            let x = BlendIn {
                s: [s[0][q], s[1][q], s[2][q], s[3][q]],
                s1: [s1[0][q], s1[1][q], s1[2][q], s1[3][q]],
                d: [d[0][q], d[1][q], d[2][q], d[3][q]],
                k,
            };
            for (c, oc) in o.iter_mut().enumerate().take(ncomp) {
                oc[q] = blend_channel(b, bl, c, &x);
            }
        }
    }
    for c in 0..4 {
        if cmask & (1 << c) == 0 {
            o[c] = d[c];
        }
    }
    encode_store(b, fmt, addr, pitch, o, mask);
}
