//! ALU operations: lowering a NIR ALU instruction to per-component lane ops, and the
//! lane kernels. Float ops run in f32 with GLSL's precision rules (§4.7.1 "Range
//! and Precision"), not the opcode table's f64 fold expressions: correctly rounded
//! ops (add, sub, mul, div, sqrt, min, max, floor, ...) give the folder's results;
//! `ffma`, `flrp`, `fdot*`, `fmod` and `frsq` are evaluated as their defining
//! equations with each op rounded to f32; `fexp2`, `flog2`, `fpow`, `fsin` and
//! `fcos` use the polynomial approximations of [`crate::fastmath`]. The JIT
//! (`jit::emit::alu`) evaluates the same operations in the same order, so the two
//! agree bit for bit. Booleans are 1-bit values held as 0 / 1.
//! Opcodes without a kernel here (packing, bit-field and horizontal compares, other
//! bit sizes' corner cases) run through the folder itself, per lane.

use std::cell::RefCell;

use rgl_nir::ir::{Alu, Def, FunctionImpl};
use rgl_nir::opcodes::{encode, Fold, Opcode};

use super::program::{f, map1, map2, map3, store, Bin, Op, Tri, Un};
use crate::exec::{Reg, LANES};
use crate::fastmath;
use crate::texture::{ceil_f32, floor_f32, round_even_f32, trunc_f32};
use crate::{Error, Result};

/// How the compiler names the registers of a def.
pub(crate) trait RegMap {
    /// Register of component `c` of `d`.
    fn reg(&mut self, d: Def, c: u8) -> Result<u32>;
    /// Bit size of `d`.
    fn bits(&self, d: Def) -> u8;
}

fn un_of(op: Opcode, dbits: u8) -> Option<Un> {
    use Opcode as O;
    Some(match op {
        O::mov | O::f2f32 | O::i2i32 | O::u2u32 => Un::Mov,
        O::fneg => Un::FNeg,
        O::fabs => Un::FAbs,
        O::fsat => Un::FSat,
        O::fsign => Un::FSign,
        O::ffloor => Un::FFloor,
        O::fceil => Un::FCeil,
        O::ftrunc => Un::FTrunc,
        O::ffract => Un::FFract,
        O::fround_even => Un::FRoundEven,
        O::fsqrt => Un::FSqrt,
        O::frsq => Un::FRsq,
        O::frcp => Un::FRcp,
        O::fexp2 => Un::FExp2,
        O::flog2 => Un::FLog2,
        O::fsin => Un::FSin,
        O::fcos => Un::FCos,
        O::ineg => Un::INeg,
        O::iabs => Un::IAbs,
        O::inot if dbits == 1 => Un::BNot,
        O::inot => Un::INot,
        O::f2i32 => Un::F2I,
        O::f2u32 => Un::F2U,
        O::i2f32 => Un::I2F,
        O::u2f32 => Un::U2F,
        O::b2f32 => Un::B2F,
        O::b2i32 => Un::B2I,
        O::b2b1 | O::i2b1 => Un::ToB1,
        O::b2b32 => Un::ToB32,
        O::f2b1 => Un::F2B,
        O::isign => Un::ISign,
        _ => return None,
    })
}

fn bin_of(op: Opcode) -> Option<Bin> {
    use Opcode as O;
    Some(match op {
        O::fadd => Bin::FAdd,
        O::fsub => Bin::FSub,
        O::fmul => Bin::FMul,
        O::fdiv => Bin::FDiv,
        O::fmin => Bin::FMin,
        O::fmax => Bin::FMax,
        O::fmod => Bin::FMod,
        O::fpow => Bin::FPow,
        O::iadd => Bin::IAdd,
        O::isub => Bin::ISub,
        O::imul => Bin::IMul,
        O::idiv => Bin::IDiv,
        O::udiv => Bin::UDiv,
        O::imod => Bin::IMod,
        O::irem => Bin::IRem,
        O::umod => Bin::UMod,
        O::iand => Bin::IAnd,
        O::ior => Bin::IOr,
        O::ixor => Bin::IXor,
        O::ishl => Bin::IShl,
        O::ishr => Bin::IShr,
        O::ushr => Bin::UShr,
        O::imin => Bin::IMin,
        O::imax => Bin::IMax,
        O::umin => Bin::UMin,
        O::umax => Bin::UMax,
        O::flt => Bin::FLt,
        O::fge => Bin::FGe,
        O::feq => Bin::FEq,
        O::fneu => Bin::FNe,
        O::ilt => Bin::ILt,
        O::ige => Bin::IGe,
        O::ieq => Bin::IEq,
        O::ine => Bin::INe,
        O::ult => Bin::ULt,
        O::uge => Bin::UGe,
        _ => return None,
    })
}

fn tri_of(op: Opcode) -> Option<Tri> {
    Some(match op {
        Opcode::ffma => Tri::FFma,
        Opcode::flrp => Tri::FLrp,
        Opcode::bcsel => Tri::BCsel,
        Opcode::fcsel => Tri::FCsel,
        _ => return None,
    })
}

/// Ops whose kernels are exact on 1-bit (0 / 1) operands and results.
fn bool_safe(op: Opcode) -> bool {
    use Opcode as O;
    matches!(
        op,
        O::mov
            | O::vec2
            | O::vec3
            | O::vec4
            | O::iand
            | O::ior
            | O::ixor
            | O::inot
            | O::ieq
            | O::ine
            | O::bcsel
            | O::b2f32
            | O::b2i32
            | O::b2b32
            | O::b2b1
            | O::i2b1
    )
}

/// Lowers one ALU instruction defining `def` to lane ops.
pub(crate) fn compile_alu(
    func: &FunctionImpl,
    alu: &Alu,
    def: Def,
    m: &mut dyn RegMap,
    ops: &mut Vec<Op>,
) -> Result<()> {
    let dd = &func.defs[def];
    let (comps, dbits) = (dd.num_components, dd.bit_size);
    let info = alu.op.info();
    if alu.srcs.len() != info.num_inputs() {
        return Err(Error::Unsupported(format!(
            "malformed {} with {} sources",
            alu.op,
            alu.srcs.len()
        )));
    }
    let sbits: Vec<u8> = alu.srcs.iter().map(|s| m.bits(s.def)).collect();
    for &b in sbits.iter().chain(std::iter::once(&dbits)) {
        if b != 1 && b != 32 {
            return Err(Error::Unsupported(format!("{} on {b}-bit values", alu.op)));
        }
    }
    // Operands of the op's own bit size (the "unsized" ones) are 1-bit: only the
    // boolean-safe kernels apply; others go through the folder.
    let unsized_bits = info
        .input_types
        .iter()
        .zip(&sbits)
        .find(|(t, _)| t.bits == 0)
        .map(|(_, b)| *b)
        .unwrap_or(dbits);
    let fast = unsized_bits == 32 || bool_safe(alu.op);
    let src = |m: &mut dyn RegMap, i: usize, c: usize| -> Result<u32> {
        let s = &alu.srcs[i];
        m.reg(s.def, s.swizzle[c])
    };
    // Horizontal dot products.
    if matches!(alu.op, Opcode::fdot2 | Opcode::fdot3 | Opcode::fdot4) && fast {
        let n = info.input_sizes[0] as usize;
        let mut a = [0u32; 4];
        let mut b = [0u32; 4];
        for c in 0..n {
            a[c] = src(m, 0, c)?;
            b[c] = src(m, 1, c)?;
        }
        let d = m.reg(def, 0)?;
        ops.push(Op::Dot {
            n: n as u8,
            d,
            a,
            b,
        });
        return Ok(());
    }
    if matches!(alu.op, Opcode::vec2 | Opcode::vec3 | Opcode::vec4) {
        for c in 0..comps as usize {
            let a = src(m, c, 0)?;
            let d = m.reg(def, c as u8)?;
            ops.push(Op::Un { f: Un::Mov, d, a });
        }
        return Ok(());
    }
    let per_comp = info.output_size == 0 && info.input_sizes.iter().all(|s| *s == 0);
    if per_comp && fast {
        for c in 0..comps as usize {
            let d = m.reg(def, c as u8)?;
            let op = match info.num_inputs() {
                1 => un_of(alu.op, dbits).map(|f| {
                    Ok::<_, Error>(Op::Un {
                        f,
                        d,
                        a: src(m, 0, c)?,
                    })
                }),
                2 => bin_of(alu.op).map(|f| {
                    Ok(Op::Bin {
                        f,
                        d,
                        a: src(m, 0, c)?,
                        b: src(m, 1, c)?,
                    })
                }),
                3 => tri_of(alu.op).map(|f| {
                    Ok(Op::Tri {
                        f,
                        d,
                        a: src(m, 0, c)?,
                        b: src(m, 1, c)?,
                        c: src(m, 2, c)?,
                    })
                }),
                _ => None,
            };
            match op {
                Some(op) => ops.push(op?),
                None => ops.push(fold_op(alu, def, c, comps, dbits, &sbits, m)?),
            }
        }
        return Ok(());
    }
    for c in 0..comps as usize {
        ops.push(fold_op(alu, def, c, comps, dbits, &sbits, m)?);
    }
    Ok(())
}

fn fold_op(
    alu: &Alu,
    def: Def,
    c: usize,
    comps: u8,
    dbits: u8,
    sbits: &[u8],
    m: &mut dyn RegMap,
) -> Result<Op> {
    let info = alu.op.info();
    let per_comp = info.output_size == 0;
    let mut srcs = Vec::with_capacity(alu.srcs.len());
    for (i, s) in alu.srcs.iter().enumerate() {
        let size = match info.input_sizes[i] {
            0 => comps,
            n => n,
        } as usize;
        let regs = if per_comp && info.input_sizes[i] == 0 {
            // Component `c` only; the folder reads it as component 0 below.
            vec![m.reg(s.def, s.swizzle[c])?]
        } else {
            (0..size)
                .map(|k| m.reg(s.def, s.swizzle[k]))
                .collect::<Result<Vec<_>>>()?
        };
        srcs.push((sbits[i], regs));
    }
    // Per-component sources hold one value: fold component 0 of them. Horizontal
    // ops read their sized sources by component and produce component `c`.
    let comp = if per_comp && info.input_sizes.iter().all(|s| *s == 0) {
        0
    } else {
        c as u8
    };
    if per_comp && info.input_sizes.iter().any(|s| *s != 0) {
        return Err(Error::Unsupported(format!(
            "ALU op {} mixing per-component and sized sources",
            alu.op
        )));
    }
    Ok(Op::Fold {
        op: alu.op,
        bits: dbits,
        comp,
        d: m.reg(def, c as u8)?,
        srcs,
    })
}

#[inline(always)]
fn b(v: bool) -> u32 {
    v as u32
}

/// Runs a unary kernel.
#[inline(always)]
pub(crate) fn run_un(regs: &mut [Reg], exec: u32, op: Un, dst: u32, a: u32) {
    let x = &regs[a as usize].0;
    let r = match op {
        Un::Mov => *x,
        Un::FNeg => map1(x, |a| a ^ 0x8000_0000),
        Un::FAbs => map1(x, |a| a & 0x7fff_ffff),
        Un::FSat => map1(x, |a| {
            let v = f(a);
            (if v > 1.0 {
                1.0
            } else if v >= 0.0 {
                v
            } else {
                0.0
            })
            .to_bits()
        }),
        Un::FSign => map1(x, |a| {
            let v = f(a);
            (if v.is_nan() {
                0.0
            } else if v == 0.0 {
                v
            } else if v > 0.0 {
                1.0
            } else {
                -1.0
            })
            .to_bits()
        }),
        Un::FFloor => map1(x, |a| floor_f32(f(a)).to_bits()),
        Un::FCeil => map1(x, |a| ceil_f32(f(a)).to_bits()),
        Un::FTrunc => map1(x, |a| trunc_f32(f(a)).to_bits()),
        Un::FFract => map1(x, |a| (f(a) - floor_f32(f(a))).to_bits()),
        Un::FRoundEven => map1(x, |a| round_even_f32(f(a)).to_bits()),
        Un::FSqrt => map1(x, |a| f(a).sqrt().to_bits()),
        Un::FRsq => map1(x, |a| (1.0 / f(a).sqrt()).to_bits()),
        Un::FRcp => map1(x, |a| (1.0 / f(a)).to_bits()),
        Un::FExp2 => map1(x, |a| fastmath::exp2_f32(f(a)).to_bits()),
        Un::FLog2 => map1(x, |a| fastmath::log2_f32(f(a)).to_bits()),
        Un::FSin => map1(x, |a| fastmath::sin_f32(f(a)).to_bits()),
        Un::FCos => map1(x, |a| fastmath::cos_f32(f(a)).to_bits()),
        Un::INeg => map1(x, |a| (a as i32).wrapping_neg() as u32),
        Un::IAbs => map1(x, |a| (a as i32).wrapping_abs() as u32),
        Un::INot => map1(x, |a| !a),
        Un::BNot => map1(x, |a| b(a == 0)),
        Un::F2I => map1(x, |a| f(a) as i32 as u32),
        Un::F2U => map1(x, |a| f(a) as u32),
        Un::I2F => map1(x, |a| (a as i32 as f32).to_bits()),
        Un::U2F => map1(x, |a| (a as f32).to_bits()),
        Un::B2F => map1(x, |a| if a != 0 { 1.0f32.to_bits() } else { 0 }),
        Un::B2I => map1(x, |a| b(a != 0)),
        Un::ToB1 => map1(x, |a| b(a != 0)),
        Un::ToB32 => map1(x, |a| if a != 0 { u32::MAX } else { 0 }),
        Un::F2B => map1(x, |a| b(f(a) != 0.0)),
        Un::ISign => map1(x, |a| (a as i32).signum() as u32),
    };
    store(regs, dst, exec, r);
}

fn imod(a: i32, b: i32) -> u32 {
    if b == 0 {
        return 0;
    }
    let (a, b) = (a as i64, b as i64);
    let r = a % b;
    (if r == 0 || (a >= 0) == (b >= 0) {
        r
    } else {
        r + b
    }) as u32
}

/// Runs a binary kernel.
#[inline(always)]
pub(crate) fn run_bin(regs: &mut [Reg], exec: u32, op: Bin, dst: u32, a: u32, bb: u32) {
    let x = &regs[a as usize].0;
    let y = &regs[bb as usize].0;
    let r = match op {
        Bin::FAdd => map2(x, y, |a, b| (f(a) + f(b)).to_bits()),
        Bin::FSub => map2(x, y, |a, b| (f(a) - f(b)).to_bits()),
        Bin::FMul => map2(x, y, |a, b| (f(a) * f(b)).to_bits()),
        Bin::FDiv => map2(x, y, |a, b| (f(a) / f(b)).to_bits()),
        Bin::FMin => map2(x, y, |a, b| f(a).min(f(b)).to_bits()),
        Bin::FMax => map2(x, y, |a, b| f(a).max(f(b)).to_bits()),
        Bin::FMod => map2(x, y, |a, b| {
            (f(a) - f(b) * floor_f32(f(a) / f(b))).to_bits()
        }),
        Bin::FPow => map2(x, y, |a, b| fastmath::pow_f32(f(a), f(b)).to_bits()),
        Bin::IAdd => map2(x, y, |a, b| a.wrapping_add(b)),
        Bin::ISub => map2(x, y, |a, b| a.wrapping_sub(b)),
        Bin::IMul => map2(x, y, |a, b| a.wrapping_mul(b)),
        Bin::IDiv => map2(x, y, |a, b| {
            if b == 0 {
                0
            } else {
                (a as i32).wrapping_div(b as i32) as u32
            }
        }),
        Bin::UDiv => map2(x, y, |a, b| a.checked_div(b).unwrap_or(0)),
        Bin::IMod => map2(x, y, |a, b| imod(a as i32, b as i32)),
        Bin::IRem => map2(x, y, |a, b| {
            if b == 0 {
                0
            } else {
                (a as i32).wrapping_rem(b as i32) as u32
            }
        }),
        Bin::UMod => map2(x, y, |a, b| a.checked_rem(b).unwrap_or(0)),
        Bin::IAnd => map2(x, y, |a, b| a & b),
        Bin::IOr => map2(x, y, |a, b| a | b),
        Bin::IXor => map2(x, y, |a, b| a ^ b),
        Bin::IShl => map2(x, y, |a, b| a << (b & 31)),
        Bin::IShr => map2(x, y, |a, b| ((a as i32) >> (b & 31)) as u32),
        Bin::UShr => map2(x, y, |a, b| a >> (b & 31)),
        Bin::IMin => map2(x, y, |a, b| (a as i32).min(b as i32) as u32),
        Bin::IMax => map2(x, y, |a, b| (a as i32).max(b as i32) as u32),
        Bin::UMin => map2(x, y, |a, b| a.min(b)),
        Bin::UMax => map2(x, y, |a, b| a.max(b)),
        Bin::FLt => map2(x, y, |a, bb| b(f(a) < f(bb))),
        Bin::FGe => map2(x, y, |a, bb| b(f(a) >= f(bb))),
        Bin::FEq => map2(x, y, |a, bb| b(f(a) == f(bb))),
        Bin::FNe => map2(x, y, |a, bb| b(f(a) != f(bb))),
        Bin::ILt => map2(x, y, |a, bb| b((a as i32) < (bb as i32))),
        Bin::IGe => map2(x, y, |a, bb| b((a as i32) >= (bb as i32))),
        Bin::IEq => map2(x, y, |a, bb| b(a == bb)),
        Bin::INe => map2(x, y, |a, bb| b(a != bb)),
        Bin::ULt => map2(x, y, |a, bb| b(a < bb)),
        Bin::UGe => map2(x, y, |a, bb| b(a >= bb)),
    };
    store(regs, dst, exec, r);
}

/// Runs a ternary kernel.
#[inline(always)]
pub(crate) fn run_tri(regs: &mut [Reg], exec: u32, op: Tri, dst: u32, a: u32, bb: u32, c: u32) {
    let x = &regs[a as usize].0;
    let y = &regs[bb as usize].0;
    let z = &regs[c as usize].0;
    let r = match op {
        // GLSL's `a * b + c` rule allows two roundings (§4.7.1); so does `fma()`
        // outside `precise`.
        Tri::FFma | Tri::FMulAdd => map3(x, y, z, |a, b, c| (f(a) * f(b) + f(c)).to_bits()),
        Tri::FLrp => map3(x, y, z, |a, b, c| {
            (f(a) * (1.0 - f(c)) + f(b) * f(c)).to_bits()
        }),
        Tri::BCsel => map3(x, y, z, |a, b, c| if a != 0 { b } else { c }),
        Tri::FCsel => map3(x, y, z, |a, b, c| if f(a) != 0.0 { b } else { c }),
    };
    store(regs, dst, exec, r);
}

/// Runs a dot product.
#[inline(always)]
pub(crate) fn run_dot(regs: &mut [Reg], exec: u32, n: u8, dst: u32, a: &[u32; 4], bb: &[u32; 4]) {
    // Products summed in component order, each op rounded to f32 (`dot` inherits
    // the precision of `a * b + c`).
    let mut acc = [0f32; LANES];
    for k in 0..n as usize {
        let x = &regs[a[k] as usize].0;
        let y = &regs[bb[k] as usize].0;
        for i in 0..LANES {
            let p = f(x[i]) * f(y[i]);
            acc[i] = if k == 0 { p } else { acc[i] + p };
        }
    }
    let mut r = [0u32; LANES];
    for i in 0..LANES {
        r[i] = acc[i].to_bits();
    }
    store(regs, dst, exec, r);
}

thread_local! {
    static FOLD_SRCS: RefCell<Vec<(u8, Vec<u64>)>> = const { RefCell::new(Vec::new()) };
}

/// Runs an op through the opcode table's folder, lane by lane (reusing a per-thread
/// source buffer).
pub(crate) fn run_fold(
    regs: &mut [Reg],
    exec: u32,
    op: Opcode,
    bits: u8,
    comp: u8,
    dst: u32,
    srcs: &[(u8, Vec<u32>)],
) {
    let mut r = [0u32; LANES];
    FOLD_SRCS.with(|buf| {
        let mut buf = buf.borrow_mut();
        buf.resize_with(srcs.len(), || (0, Vec::new()));
        for (slot, (sb, regs_of)) in buf.iter_mut().zip(srcs) {
            slot.0 = *sb;
            slot.1.resize(regs_of.len(), 0);
        }
        let exec_bits = op
            .info()
            .input_types
            .iter()
            .zip(srcs)
            .find(|(t, _)| t.bits == 0)
            .map(|(_, s)| s.0)
            .unwrap_or(bits);
        for (l, out) in r.iter_mut().enumerate() {
            for (slot, (_, regs_of)) in buf.iter_mut().zip(srcs) {
                for (v, &reg) in slot.1.iter_mut().zip(regs_of) {
                    let w = regs[reg as usize].0[l];
                    *v = if slot.0 == 1 {
                        u64::from(w & 1)
                    } else {
                        u64::from(w)
                    };
                }
            }
            let fold = Fold {
                comp: comp as usize,
                bits: exec_bits,
                srcs: &buf[..],
            };
            let v = op.fold_component(&fold);
            *out = encode(v, bits).unwrap_or(0) as u32;
        }
    });
    store(regs, dst, exec, r);
}
