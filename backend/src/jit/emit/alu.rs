//! ALU instructions as `i32x4`/`f32x4` vector code, bit-identical to the lane
//! interpreter's kernels ([`crate::lanes::alu`]): float ops run in f32 with GLSL's
//! precision rules — `ffma`, `flrp`, `fdot*`, `fmod` and `frsq` as their defining
//! equations with each op rounded, in the interpreter's order; `fexp2`, `flog2`,
//! `fpow`, `fsin` and `fcos` as the inline polynomials of [`crate::fastmath`],
//! emitted through its [`VecOps`] on Cranelift values (computed once per body, not
//! per quad, when the operands are uniform); `fmin`/`fmax` keep Rust's NaN rule (a
//! NaN operand yields the other one); integer division and per-lane shift amounts
//! go lane by lane with the interpreter's guards (division by 0 gives 0,
//! `i32::MIN / -1` wraps). Every other op (packing, bit fields, horizontal
//! compares, 1-bit operands of non-boolean ops) calls the interpreter's own
//! kernels through [`super::call`].

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{types, InstBuilder, Value};
use rgl_nir::ir::{Alu, Def};
use rgl_nir::opcodes::Opcode;

use super::{Emitter, FillRest, Lanes};
use crate::fastmath::{self, VecOps};
use crate::{Error, Result};

/// Ops whose mask lowering is exact on 1-bit (mask) operands and results (the
/// interpreter's boolean-safe set).
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

/// Per-component ops with a vector lowering here.
fn native(op: Opcode) -> bool {
    use Opcode as O;
    matches!(
        op,
        O::mov
            | O::f2f32
            | O::i2i32
            | O::u2u32
            | O::fneg
            | O::fabs
            | O::fsat
            | O::fsign
            | O::ffloor
            | O::fceil
            | O::ftrunc
            | O::ffract
            | O::fround_even
            | O::fsqrt
            | O::frsq
            | O::frcp
            | O::fexp2
            | O::flog2
            | O::fsin
            | O::fcos
            | O::ineg
            | O::iabs
            | O::inot
            | O::f2i32
            | O::f2u32
            | O::i2f32
            | O::u2f32
            | O::b2f32
            | O::b2i32
            | O::b2b1
            | O::i2b1
            | O::b2b32
            | O::f2b1
            | O::isign
            | O::fadd
            | O::fsub
            | O::fmul
            | O::fdiv
            | O::fmin
            | O::fmax
            | O::fmod
            | O::fpow
            | O::iadd
            | O::isub
            | O::imul
            | O::idiv
            | O::udiv
            | O::imod
            | O::irem
            | O::umod
            | O::iand
            | O::ior
            | O::ixor
            | O::ishl
            | O::ishr
            | O::ushr
            | O::imin
            | O::imax
            | O::umin
            | O::umax
            | O::flt
            | O::fge
            | O::feq
            | O::fneu
            | O::ilt
            | O::ige
            | O::ieq
            | O::ine
            | O::ult
            | O::uge
            | O::ffma
            | O::flrp
            | O::bcsel
            | O::fcsel
    )
}

const ONE: u32 = 0x3f80_0000;
const MINUS_ONE: u32 = 0xbf80_0000;

impl Emitter<'_, '_, '_> {
    /// Lowers one ALU instruction defining `d`.
    pub(super) fn alu(&mut self, alu: &Alu, d: Def) -> Result<()> {
        let info = alu.op.info();
        if alu.srcs.len() != info.num_inputs() {
            return Err(Error::Unsupported(format!(
                "malformed {} with {} sources",
                alu.op,
                alu.srcs.len()
            )));
        }
        let (comps, dbits) = self.shape(d);
        let sbits: Vec<u8> = alu.srcs.iter().map(|s| self.shape(s.def).1).collect();
        for &bits in sbits.iter().chain(std::iter::once(&dbits)) {
            if bits != 1 && bits != 32 {
                return Err(Error::Unsupported(format!(
                    "{} on {bits}-bit values",
                    alu.op
                )));
            }
        }
        let unsized_bits = info
            .input_types
            .iter()
            .zip(&sbits)
            .find(|(t, _)| t.bits == 0)
            .map(|(_, b)| *b)
            .unwrap_or(dbits);
        let fast = unsized_bits == 32 || bool_safe(alu.op);
        if matches!(alu.op, Opcode::vec2 | Opcode::vec3 | Opcode::vec4) {
            let mut vals = Vec::new();
            for c in 0..comps as usize {
                let s = alu.srcs.get(c).ok_or_else(|| {
                    Error::Unsupported(format!("malformed {} without source {c}", alu.op))
                })?;
                vals.push(self.val(s.def, s.swizzle[0])?);
            }
            for (c, v) in vals.into_iter().enumerate() {
                self.set(d, c as u8, v)?;
            }
            return Ok(());
        }
        if matches!(alu.op, Opcode::fdot2 | Opcode::fdot3 | Opcode::fdot4) && fast {
            let n = info.input_sizes[0] as usize;
            let mut a = Vec::new();
            let mut b = Vec::new();
            for c in 0..n {
                a.push(self.val(alu.srcs[0].def, alu.srcs[0].swizzle[c])?);
                b.push(self.val(alu.srcs[1].def, alu.srcs[1].swizzle[c])?);
            }
            let r = self.dot(&a, &b);
            for c in 0..comps {
                self.set(d, c, r)?;
            }
            return Ok(());
        }
        let per_comp = info.output_size == 0 && info.input_sizes.iter().all(|s| *s == 0);
        if !(per_comp && fast && native(alu.op)) {
            return self.alu_fallback(alu, d);
        }
        let mut results = Vec::with_capacity(comps as usize);
        for c in 0..comps as usize {
            let mut srcs = Vec::with_capacity(alu.srcs.len());
            for s in &alu.srcs {
                srcs.push(self.val(s.def, s.swizzle[c])?);
            }
            results.push(self.native_op(alu, &srcs, &sbits, dbits)?);
        }
        for (c, v) in results.into_iter().enumerate() {
            self.set(d, c as u8, v)?;
        }
        Ok(())
    }

    /// Source `i` as masks (1-bit values already are).
    fn mask_src(&mut self, v: Lanes, bits: u8) -> Lanes {
        if bits == 1 {
            v
        } else {
            self.nonzero(v)
        }
    }

    /// A comparison result (masks) in the destination's representation.
    fn bool_result(&mut self, m: Lanes, dbits: u8) -> Lanes {
        if dbits == 1 {
            m
        } else {
            let one = self.splat(1);
            self.map1(m, |e, x| e.b.ins().band(x, one))
        }
    }

    fn fcmp(&mut self, cc: FloatCC, a: Lanes, b: Lanes) -> Lanes {
        self.map2(a, b, |e, x, y| {
            let (fx, fy) = (e.as_f(x), e.as_f(y));
            let r = e.b.ins().fcmp(cc, fx, fy);
            e.as_i(r)
        })
    }

    fn icmp(&mut self, cc: IntCC, a: Lanes, b: Lanes) -> Lanes {
        self.map2(a, b, |e, x, y| e.b.ins().icmp(cc, x, y))
    }

    fn fbin(&mut self, a: Lanes, b: Lanes, f: fn(&mut Self, Value, Value) -> Value) -> Lanes {
        self.map2(a, b, |e, x, y| {
            let (fx, fy) = (e.as_f(x), e.as_f(y));
            let r = f(e, fx, fy);
            e.as_i(r)
        })
    }

    fn fun(&mut self, a: Lanes, f: fn(&mut Self, Value) -> Value) -> Lanes {
        self.map1(a, |e, x| {
            let fx = e.as_f(x);
            let r = f(e, fx);
            e.as_i(r)
        })
    }

    /// `min` with Rust's rule: a NaN operand yields the other operand.
    fn fminmax(&mut self, a: Value, b: Value, max: bool) -> Value {
        let (fa, fb) = (self.as_f(a), self.as_f(b));
        let pick_a = if max {
            self.b.ins().fcmp(FloatCC::LessThan, fb, fa)
        } else {
            self.b.ins().fcmp(FloatCC::LessThan, fa, fb)
        };
        let pick_a = self.as_i(pick_a);
        let t = self.b.ins().bitselect(pick_a, a, b);
        let b_nan = self.b.ins().fcmp(FloatCC::Unordered, fb, fb);
        let b_nan = self.as_i(b_nan);
        self.b.ins().bitselect(b_nan, a, t)
    }

    /// `dot(a, b)`: the products summed in component order, each op rounded to f32
    /// (the interpreter's order).
    fn dot(&mut self, a: &[Lanes], b: &[Lanes]) -> Lanes {
        let n = a.len();
        let mut out = Lanes::splat(a[0].0[0]);
        for q in 0..self.q {
            let mut acc = None;
            for k in 0..n {
                let (x, y) = (self.as_f(a[k].0[q]), self.as_f(b[k].0[q]));
                let p = self.b.ins().fmul(x, y);
                acc = Some(match acc {
                    None => p,
                    Some(s) => self.b.ins().fadd(s, p),
                });
            }
            out.0[q] = match acc {
                Some(v) => self.as_i(v),
                None => self.splat(0),
            };
        }
        for q in self.q..super::MAX_QUADS {
            out.0[q] = out.0[0];
        }
        out
    }

    /// A [`crate::fastmath`] function of one or two float operands, per quad (once
    /// when the operands are uniform).
    fn fast_math(
        &mut self,
        a: Lanes,
        b: Option<Lanes>,
        uniform: bool,
        f: fn(&mut ClOps<'_, '_, '_, '_>, Value, Option<Value>) -> Value,
    ) -> Lanes {
        let n = if uniform { 1 } else { self.q };
        let mut out = a;
        for q in 0..n {
            let x = self.as_f(a.0[q]);
            let y = b.map(|b| self.as_f(b.0[q]));
            let r = f(&mut ClOps { e: self }, x, y);
            out.0[q] = self.as_i(r);
        }
        if uniform {
            Lanes::splat(out.0[0])
        } else {
            out.fill_rest(self.q)
        }
    }

    /// `f` on each lane's scalars (with 4 lanes per vector).
    fn per_lane(
        &mut self,
        a: Value,
        b: Value,
        f: impl Fn(&mut Self, Value, Value) -> Value,
    ) -> Value {
        let mut r = a;
        for l in 0..4u8 {
            let x = self.b.ins().extractlane(a, l);
            let y = self.b.ins().extractlane(b, l);
            let z = f(self, x, y);
            r = self.b.ins().insertlane(r, z, l);
        }
        r
    }

    /// Guarded signed division/remainder: `b == 0` gives 0, `MIN / -1` wraps.
    fn sdivrem(&mut self, a: Value, b: Value, rem: bool) -> Value {
        let bz = self.b.ins().icmp_imm_s(IntCC::Equal, b, 0);
        let amin = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, a, i64::from(i32::MIN));
        let bm1 = self.b.ins().icmp_imm_s(IntCC::Equal, b, -1);
        let ovf = self.b.ins().band(amin, bm1);
        let bad = self.b.ins().bor(bz, ovf);
        let one = self.b.ins().iconst(types::I32, 1);
        let sb = self.b.ins().select(bad, one, b);
        let r = if rem {
            self.b.ins().srem(a, sb)
        } else {
            self.b.ins().sdiv(a, sb)
        };
        let zero = self.b.ins().iconst(types::I32, 0);
        self.b.ins().select(bz, zero, r)
    }

    fn udivrem(&mut self, a: Value, b: Value, rem: bool) -> Value {
        let bz = self.b.ins().icmp_imm_s(IntCC::Equal, b, 0);
        let one = self.b.ins().iconst(types::I32, 1);
        let sb = self.b.ins().select(bz, one, b);
        let r = if rem {
            self.b.ins().urem(a, sb)
        } else {
            self.b.ins().udiv(a, sb)
        };
        let zero = self.b.ins().iconst(types::I32, 0);
        self.b.ins().select(bz, zero, r)
    }

    /// GLSL `mod` on integers (the interpreter's `imod`): the remainder takes the
    /// sign of the divisor; `b == 0` gives 0.
    fn imod(&mut self, a: Value, b: Value) -> Value {
        let r = self.sdivrem(a, b, true);
        let zero = self.b.ins().iconst(types::I32, 0);
        let rnz = self.b.ins().icmp(IntCC::NotEqual, r, zero);
        let an = self.b.ins().icmp(IntCC::SignedLessThan, a, zero);
        let bn = self.b.ins().icmp(IntCC::SignedLessThan, b, zero);
        let diff = self.b.ins().bxor(an, bn);
        let adj = self.b.ins().band(rnz, diff);
        let rb = self.b.ins().iadd(r, b);
        self.b.ins().select(adj, rb, r)
    }

    /// A shift by per-lane amounts (`& 31`); one scalar amount when it is uniform.
    fn shift(&mut self, a: Lanes, b: Lanes, b_uniform: bool, op: Opcode) -> Lanes {
        let sh = |e: &mut Self, x: Value, y: Value| match op {
            Opcode::ishl => e.b.ins().ishl(x, y),
            Opcode::ishr => e.b.ins().sshr(x, y),
            _ => e.b.ins().ushr(x, y),
        };
        if b_uniform {
            let amt = self.b.ins().extractlane(b.0[0], 0);
            let m = self.b.ins().band_imm_u(amt, 31);
            return self.map1(a, |e, x| sh(e, x, m));
        }
        self.map2(a, b, |e, x, y| {
            e.per_lane(x, y, |e, s, t| {
                let m = e.b.ins().band_imm_u(t, 31);
                sh(e, s, m)
            })
        })
    }

    fn native_op(&mut self, alu: &Alu, s: &[Lanes], sbits: &[u8], dbits: u8) -> Result<Lanes> {
        use Opcode as O;
        let op = alu.op;
        let uniform = alu.srcs.iter().all(|s| !self.p.an.is_divergent(s.def));
        Ok(match op {
            O::mov | O::f2f32 | O::i2i32 | O::u2u32 => s[0],
            O::fneg => {
                let m = self.splat(0x8000_0000);
                self.map1(s[0], |e, x| e.b.ins().bxor(x, m))
            }
            O::fabs => {
                let m = self.splat(0x7fff_ffff);
                self.map1(s[0], |e, x| e.b.ins().band(x, m))
            }
            O::fsat => {
                let (one, zero) = (self.splat(ONE), self.splat(0));
                self.map1(s[0], |e, x| {
                    let (fx, fone, fzero) = (e.as_f(x), e.as_f(one), e.as_f(zero));
                    let gt = e.b.ins().fcmp(FloatCC::GreaterThan, fx, fone);
                    let ge = e.b.ins().fcmp(FloatCC::GreaterThanOrEqual, fx, fzero);
                    let (gt, ge) = (e.as_i(gt), e.as_i(ge));
                    let low = e.b.ins().bitselect(ge, x, zero);
                    e.b.ins().bitselect(gt, one, low)
                })
            }
            O::fsign => {
                let (one, m1, zero) = (self.splat(ONE), self.splat(MINUS_ONE), self.splat(0));
                self.map1(s[0], |e, x| {
                    let (fx, fz) = (e.as_f(x), e.as_f(zero));
                    let gt = e.b.ins().fcmp(FloatCC::GreaterThan, fx, fz);
                    let lt = e.b.ins().fcmp(FloatCC::LessThan, fx, fz);
                    let eq = e.b.ins().fcmp(FloatCC::Equal, fx, fz);
                    let (gt, lt, eq) = (e.as_i(gt), e.as_i(lt), e.as_i(eq));
                    let z = e.b.ins().bitselect(eq, x, zero);
                    let n = e.b.ins().bitselect(lt, m1, z);
                    e.b.ins().bitselect(gt, one, n)
                })
            }
            O::ffloor => self.fun(s[0], |e, x| e.b.ins().floor(x)),
            O::fceil => self.fun(s[0], |e, x| e.b.ins().ceil(x)),
            O::ftrunc => self.fun(s[0], |e, x| e.b.ins().trunc(x)),
            O::fround_even => self.fun(s[0], |e, x| e.b.ins().nearest(x)),
            O::ffract => self.fun(s[0], |e, x| {
                let fl = e.b.ins().floor(x);
                e.b.ins().fsub(x, fl)
            }),
            O::fsqrt => self.fun(s[0], |e, x| e.b.ins().sqrt(x)),
            O::frcp => {
                let one = self.splat(ONE);
                self.map1(s[0], |e, x| {
                    let (fo, fx) = (e.as_f(one), e.as_f(x));
                    let r = e.b.ins().fdiv(fo, fx);
                    e.as_i(r)
                })
            }
            O::frsq => {
                let one = self.splat(ONE);
                self.map1(s[0], |e, x| {
                    let fx = e.as_f(x);
                    let r = e.b.ins().sqrt(fx);
                    let fo = e.as_f(one);
                    let q = e.b.ins().fdiv(fo, r);
                    e.as_i(q)
                })
            }
            O::fexp2 => self.fast_math(s[0], None, uniform, |o, x, _| fastmath::exp2(o, x)),
            O::flog2 => self.fast_math(s[0], None, uniform, |o, x, _| fastmath::log2(o, x)),
            O::fsin => self.fast_math(s[0], None, uniform, |o, x, _| fastmath::sin(o, x)),
            O::fcos => self.fast_math(s[0], None, uniform, |o, x, _| fastmath::cos(o, x)),
            O::fpow => self.fast_math(s[0], Some(s[1]), uniform, |o, x, y| {
                let y = y.unwrap_or(x);
                fastmath::pow(o, x, y)
            }),
            O::ineg => self.map1(s[0], |e, x| e.b.ins().ineg(x)),
            O::iabs => self.map1(s[0], |e, x| e.b.ins().iabs(x)),
            O::inot => self.map1(s[0], |e, x| e.b.ins().bnot(x)),
            O::f2i32 => self.map1(s[0], |e, x| {
                let f = e.as_f(x);
                e.b.ins().fcvt_to_sint_sat(types::I32X4, f)
            }),
            O::f2u32 => self.map1(s[0], |e, x| {
                let f = e.as_f(x);
                e.b.ins().fcvt_to_uint_sat(types::I32X4, f)
            }),
            O::i2f32 => self.map1(s[0], |e, x| {
                let f = e.b.ins().fcvt_from_sint(types::F32X4, x);
                e.as_i(f)
            }),
            O::u2f32 => self.map1(s[0], |e, x| {
                let f = e.b.ins().fcvt_from_uint(types::F32X4, x);
                e.as_i(f)
            }),
            O::b2f32 => {
                let m = self.mask_src(s[0], sbits[0]);
                let one = self.splat(ONE);
                self.map1(m, |e, x| e.b.ins().band(x, one))
            }
            O::b2i32 => {
                let m = self.mask_src(s[0], sbits[0]);
                let one = self.splat(1);
                self.map1(m, |e, x| e.b.ins().band(x, one))
            }
            O::b2b1 | O::i2b1 | O::b2b32 => {
                let m = self.mask_src(s[0], sbits[0]);
                if op == O::b2b32 {
                    m
                } else {
                    self.bool_result(m, dbits)
                }
            }
            O::f2b1 => {
                let z = self.lanes_splat(0);
                let m = self.fcmp(FloatCC::NotEqual, s[0], z);
                self.bool_result(m, dbits)
            }
            O::isign => {
                let (c31, zero) = (self.b.ins().iconst(types::I32, 31), self.splat(0));
                self.map1(s[0], |e, x| {
                    let hi = e.b.ins().sshr(x, c31);
                    let n = e.b.ins().isub(zero, x);
                    let lo = e.b.ins().ushr(n, c31);
                    e.b.ins().bor(hi, lo)
                })
            }
            O::fadd => self.fbin(s[0], s[1], |e, x, y| e.b.ins().fadd(x, y)),
            O::fsub => self.fbin(s[0], s[1], |e, x, y| e.b.ins().fsub(x, y)),
            O::fmul => self.fbin(s[0], s[1], |e, x, y| e.b.ins().fmul(x, y)),
            O::fdiv => self.fbin(s[0], s[1], |e, x, y| e.b.ins().fdiv(x, y)),
            O::fmin => self.map2(s[0], s[1], |e, x, y| e.fminmax(x, y, false)),
            O::fmax => self.map2(s[0], s[1], |e, x, y| e.fminmax(x, y, true)),
            O::fmod => self.fbin(s[0], s[1], |e, x, y| {
                let q = e.b.ins().fdiv(x, y);
                let fl = e.b.ins().floor(q);
                let p = e.b.ins().fmul(y, fl);
                e.b.ins().fsub(x, p)
            }),
            O::iadd => self.map2(s[0], s[1], |e, x, y| e.b.ins().iadd(x, y)),
            O::isub => self.map2(s[0], s[1], |e, x, y| e.b.ins().isub(x, y)),
            O::imul => self.map2(s[0], s[1], |e, x, y| e.b.ins().imul(x, y)),
            O::idiv => self.map2(s[0], s[1], |e, x, y| {
                e.per_lane(x, y, |e, a, b| e.sdivrem(a, b, false))
            }),
            O::irem => self.map2(s[0], s[1], |e, x, y| {
                e.per_lane(x, y, |e, a, b| e.sdivrem(a, b, true))
            }),
            O::imod => self.map2(s[0], s[1], |e, x, y| {
                e.per_lane(x, y, |e, a, b| e.imod(a, b))
            }),
            O::udiv => self.map2(s[0], s[1], |e, x, y| {
                e.per_lane(x, y, |e, a, b| e.udivrem(a, b, false))
            }),
            O::umod => self.map2(s[0], s[1], |e, x, y| {
                e.per_lane(x, y, |e, a, b| e.udivrem(a, b, true))
            }),
            O::iand => self.band(s[0], s[1]),
            O::ior => self.bor(s[0], s[1]),
            O::ixor => self.map2(s[0], s[1], |e, x, y| e.b.ins().bxor(x, y)),
            O::ishl | O::ishr | O::ushr => {
                let uniform = !self.p.an.is_divergent(alu.srcs[1].def);
                self.shift(s[0], s[1], uniform, op)
            }
            O::imin => self.map2(s[0], s[1], |e, x, y| e.b.ins().smin(x, y)),
            O::imax => self.map2(s[0], s[1], |e, x, y| e.b.ins().smax(x, y)),
            O::umin => self.map2(s[0], s[1], |e, x, y| e.b.ins().umin(x, y)),
            O::umax => self.map2(s[0], s[1], |e, x, y| e.b.ins().umax(x, y)),
            O::flt | O::fge | O::feq | O::fneu => {
                let cc = match op {
                    O::flt => FloatCC::LessThan,
                    O::fge => FloatCC::GreaterThanOrEqual,
                    O::feq => FloatCC::Equal,
                    _ => FloatCC::NotEqual,
                };
                let m = self.fcmp(cc, s[0], s[1]);
                self.bool_result(m, dbits)
            }
            O::ilt | O::ige | O::ieq | O::ine | O::ult | O::uge => {
                let cc = match op {
                    O::ilt => IntCC::SignedLessThan,
                    O::ige => IntCC::SignedGreaterThanOrEqual,
                    O::ieq => IntCC::Equal,
                    O::ine => IntCC::NotEqual,
                    O::ult => IntCC::UnsignedLessThan,
                    _ => IntCC::UnsignedGreaterThanOrEqual,
                };
                let m = self.icmp(cc, s[0], s[1]);
                self.bool_result(m, dbits)
            }
            O::ffma => self.map3(s[0], s[1], s[2], |e, x, y, z| {
                let (fx, fy, fz) = (e.as_f(x), e.as_f(y), e.as_f(z));
                let p = e.b.ins().fmul(fx, fy);
                let r = e.b.ins().fadd(p, fz);
                e.as_i(r)
            }),
            O::flrp => {
                let one = self.splat(ONE);
                self.map3(s[0], s[1], s[2], |e, x, y, z| {
                    let (fx, fy, fz, fo) = (e.as_f(x), e.as_f(y), e.as_f(z), e.as_f(one));
                    let omc = e.b.ins().fsub(fo, fz);
                    let l = e.b.ins().fmul(fx, omc);
                    let r = e.b.ins().fmul(fy, fz);
                    let v = e.b.ins().fadd(l, r);
                    e.as_i(v)
                })
            }
            O::bcsel => {
                let m = self.mask_src(s[0], sbits[0]);
                self.select(m, s[1], s[2])
            }
            O::fcsel => {
                let z = self.lanes_splat(0);
                let m = self.fcmp(FloatCC::NotEqual, s[0], z);
                self.select(m, s[1], s[2])
            }
            other => {
                return Err(Error::Unsupported(format!(
                    "internal: no vector lowering for {other}"
                )))
            }
        })
    }
}

/// [`VecOps`] emitting Cranelift code for one quad (`f32x4` / `i32x4` values).
pub(super) struct ClOps<'x, 'p, 'a, 'f> {
    e: &'x mut Emitter<'p, 'a, 'f>,
}

impl VecOps for ClOps<'_, '_, '_, '_> {
    type F = Value;
    type I = Value;
    fn fconst(&mut self, x: f32) -> Value {
        let v = self.e.splat(x.to_bits());
        self.e.as_f(v)
    }
    fn iconst(&mut self, x: i32) -> Value {
        self.e.splat(x as u32)
    }
    fn fadd(&mut self, a: Value, b: Value) -> Value {
        self.e.b.ins().fadd(a, b)
    }
    fn fsub(&mut self, a: Value, b: Value) -> Value {
        self.e.b.ins().fsub(a, b)
    }
    fn fmul(&mut self, a: Value, b: Value) -> Value {
        self.e.b.ins().fmul(a, b)
    }
    fn fdiv(&mut self, a: Value, b: Value) -> Value {
        self.e.b.ins().fdiv(a, b)
    }
    fn fround(&mut self, a: Value) -> Value {
        self.e.b.ins().nearest(a)
    }
    fn ffloor(&mut self, a: Value) -> Value {
        self.e.b.ins().floor(a)
    }
    fn flt(&mut self, a: Value, b: Value) -> Value {
        let m = self.e.b.ins().fcmp(FloatCC::LessThan, a, b);
        self.e.as_i(m)
    }
    fn feq(&mut self, a: Value, b: Value) -> Value {
        let m = self.e.b.ins().fcmp(FloatCC::Equal, a, b);
        self.e.as_i(m)
    }
    fn fselect(&mut self, m: Value, a: Value, b: Value) -> Value {
        let (ia, ib) = (self.e.as_i(a), self.e.as_i(b));
        let r = self.e.b.ins().bitselect(m, ia, ib);
        self.e.as_f(r)
    }
    fn to_bits(&mut self, a: Value) -> Value {
        self.e.as_i(a)
    }
    fn float_from_bits(&mut self, a: Value) -> Value {
        self.e.as_f(a)
    }
    fn f_to_i(&mut self, a: Value) -> Value {
        self.e.b.ins().fcvt_to_sint_sat(types::I32X4, a)
    }
    fn i_to_f(&mut self, a: Value) -> Value {
        self.e.b.ins().fcvt_from_sint(types::F32X4, a)
    }
    fn iadd(&mut self, a: Value, b: Value) -> Value {
        self.e.b.ins().iadd(a, b)
    }
    fn isub(&mut self, a: Value, b: Value) -> Value {
        self.e.b.ins().isub(a, b)
    }
    fn iand(&mut self, a: Value, b: Value) -> Value {
        self.e.b.ins().band(a, b)
    }
    fn ior(&mut self, a: Value, b: Value) -> Value {
        self.e.b.ins().bor(a, b)
    }
    fn ixor(&mut self, a: Value, b: Value) -> Value {
        self.e.b.ins().bxor(a, b)
    }
    fn ishl(&mut self, a: Value, n: u32) -> Value {
        let k = self.e.b.ins().iconst(types::I32, i64::from(n));
        self.e.b.ins().ishl(a, k)
    }
    fn sshr(&mut self, a: Value, n: u32) -> Value {
        let k = self.e.b.ins().iconst(types::I32, i64::from(n));
        self.e.b.ins().sshr(a, k)
    }
    fn ushr(&mut self, a: Value, n: u32) -> Value {
        let k = self.e.b.ins().iconst(types::I32, i64::from(n));
        self.e.b.ins().ushr(a, k)
    }
    fn inonzero(&mut self, a: Value) -> Value {
        let z = self.e.splat(0);
        self.e.b.ins().icmp(IntCC::NotEqual, a, z)
    }
}
