//! The shader float functions that GLSL lets an implementation approximate —
//! `exp2`, `log2`, `pow`, `sin`, `cos` — as inline f32 polynomial code, written
//! once over the abstract lane operations of [`VecOps`] and instantiated twice: on
//! scalar `f32` ([`Scalar`], the lane interpreter's kernels, which the compiler
//! vectorises over a register's lanes) and on Cranelift values (the JIT's emitter,
//! `jit::emit::alu`). Every primitive has one exactly defined result (IEEE
//! arithmetic, comparisons as masks, bitwise selects, conversions of values
//! already known to be small integers), so the interpreter and the JIT agree bit
//! for bit by construction.
//!
//! Precision (GLSL 1.30–4.60 §4.7.1 / ES 3.00 §4.5.1, "Range and Precision"): the
//! spec bounds `exp2` by 3 + 2·|x| ULP, `log2` by 3 ULP outside [0.5, 2] and by an
//! absolute 2⁻²¹ inside it, and `pow(x, y)` inherits from `exp2(y · log2(x))`; it
//! leaves `sin` and `cos` unbounded (Vulkan's GLSL environment asks for an
//! absolute 2⁻¹¹ in [-π, π]). What this module achieves is checked by
//! `backend/tests/fastmath.rs` against `f64` library results: [`exp2`] within
//! 2 ULP, [`log2`] within 2 ULP (absolute 2⁻²³ inside [0.5, 2]), [`sin`] and
//! [`cos`] within an absolute 2⁻²² for |x| ≤ 10⁵ (beyond it the argument
//! reduction loses bits as |x|·2⁻²⁴ — below f32's own spacing of such x).
//! Special values follow IEEE `exp2`/`log2` (NaN in → NaN; `log2` of a negative
//! number is NaN, of ±0 is -∞, of +∞ is +∞; `exp2` overflows to +∞ and
//! underflows to 0); `sin`/`cos` of ±∞ are NaN. `pow(x, y)` is NaN for x < 0 and
//! for `pow(0, 0)` (both undefined in GLSL), as in llvmpipe's `lp_build_pow`.
//!
//! The method follows llvmpipe's `lp_bld_arit.c` in outline (argument reduction,
//! then a polynomial on a short interval, then the exponent put back with integer
//! arithmetic); the polynomials are our own minimax fits (Remez exchange on the
//! relative error, coefficients rounded to f32):
//! * `exp2(x)`: n = round(x), f = x - n ∈ [-½, ½] (exact), 2^f = 1 + f·P(f) with
//!   P of degree 5 (relative error of the fit 2·10⁻⁹), scaled by 2^⌊n/2⌋ · 2^⌈n/2⌉
//!   so results near the overflow and denormal ranges round once.
//! * `log2(x)`: x = m·2^e with m ∈ [√½, √2), t = (m - 1)/(m + 1), log2(m) =
//!   t·Q(t²) with Q of degree 3 (fit error 7·10⁻¹⁰); denormal inputs are scaled
//!   by 2²³ first.
//! * `sin`/`cos`: k = round(x·2/π), r = x - k·π/2 with π/2 split in four f32
//!   parts (the first two with 8 and 7 significant bits, so their products with
//!   k are exact for |k| < 2¹⁶),
//!   then sin r = r + r³·S(r²) and cos r = 1 - r²/2 + r⁴·C(r²) on [-π/4, π/4]
//!   (fit errors 4·10⁻⁹ and 10⁻¹⁰), picked and negated by k mod 4.

/// Lane operations the approximations are written in. Masks are integer lanes of
/// all ones (true) or zero. Each operation has one exactly defined result.
pub trait VecOps {
    /// A float lane (or vector of lanes).
    type F: Copy;
    /// An integer lane (or vector of lanes); also masks.
    type I: Copy;
    /// Every lane `x`.
    fn fconst(&mut self, x: f32) -> Self::F;
    /// Every lane `x`.
    fn iconst(&mut self, x: i32) -> Self::I;
    /// IEEE `a + b`.
    fn fadd(&mut self, a: Self::F, b: Self::F) -> Self::F;
    /// IEEE `a - b`.
    fn fsub(&mut self, a: Self::F, b: Self::F) -> Self::F;
    /// IEEE `a * b`.
    fn fmul(&mut self, a: Self::F, b: Self::F) -> Self::F;
    /// IEEE `a / b`.
    fn fdiv(&mut self, a: Self::F, b: Self::F) -> Self::F;
    /// Round to the nearest integer, ties to even (`roundeven`).
    fn fround(&mut self, a: Self::F) -> Self::F;
    /// Round down (`floor`).
    fn ffloor(&mut self, a: Self::F) -> Self::F;
    /// `a < b` as a mask (false when either is NaN).
    fn flt(&mut self, a: Self::F, b: Self::F) -> Self::I;
    /// `a == b` as a mask (false when either is NaN).
    fn feq(&mut self, a: Self::F, b: Self::F) -> Self::I;
    /// Bitwise `m ? a : b`.
    fn fselect(&mut self, m: Self::I, a: Self::F, b: Self::F) -> Self::F;
    /// The bits of `a`.
    fn to_bits(&mut self, a: Self::F) -> Self::I;
    /// The float with bits `a`.
    fn float_from_bits(&mut self, a: Self::I) -> Self::F;
    /// `a` converted to an integer; only called on integral values of magnitude
    /// below 2³¹ (where truncating and saturating conversions agree).
    fn f_to_i(&mut self, a: Self::F) -> Self::I;
    /// `a` converted to a float; only called on values of magnitude below 2²⁴.
    fn i_to_f(&mut self, a: Self::I) -> Self::F;
    /// Wrapping `a + b`.
    fn iadd(&mut self, a: Self::I, b: Self::I) -> Self::I;
    /// Wrapping `a - b`.
    fn isub(&mut self, a: Self::I, b: Self::I) -> Self::I;
    /// `a & b`.
    fn iand(&mut self, a: Self::I, b: Self::I) -> Self::I;
    /// `a | b`.
    fn ior(&mut self, a: Self::I, b: Self::I) -> Self::I;
    /// `a ^ b`.
    fn ixor(&mut self, a: Self::I, b: Self::I) -> Self::I;
    /// `a << n` (n < 32).
    fn ishl(&mut self, a: Self::I, n: u32) -> Self::I;
    /// Arithmetic `a >> n` (n < 32).
    fn sshr(&mut self, a: Self::I, n: u32) -> Self::I;
    /// Logical `a >> n` (n < 32).
    fn ushr(&mut self, a: Self::I, n: u32) -> Self::I;
    /// `a != 0` as a mask.
    fn inonzero(&mut self, a: Self::I) -> Self::I;
}

/// `exp2` polynomial: 2^f ≈ 1 + f·(P₀ + f·(P₁ + …)) on [-½, ½].
#[allow(
    clippy::approx_constant,
    reason = "P₀ is the minimax fit's coefficient, which only happens to round near ln 2"
)]
const EXP2_P: [f32; 6] = [
    0.693_147_2,
    0.240_226_48,
    0.055_503_324,
    0.009_618_437,
    0.001_339_887_4,
    0.000_153_533_62,
];
/// `log2` polynomial: log2((1 + t)/(1 - t)) ≈ t·(Q₀ + s·(Q₁ + …)), s = t².
const LOG2_Q: [f32; 4] = [2.885_39, 0.961_798_85, 0.576_714_4, 0.431_735_87];
/// `sin` polynomial: sin r ≈ r + r³·(S₀ + s·(S₁ + s·S₂)), s = r².
const SIN_S: [f32; 3] = [-0.166_666_55, 0.008_332_16, -0.000_195_152_82];
/// `cos` polynomial: cos r ≈ 1 - s/2 + s²·(C₀ + s·(C₁ + s·C₂)), s = r².
const COS_C: [f32; 3] = [0.041_666_646, -0.001_388_731_6, 2.443_315_7e-5];
/// π/2 = C₁ + C₂ + C₃ + C₄: C₁ (8 significant bits) and C₂ (7 bits) make k·C₁
/// and k·C₂ exact for |k| < 2¹⁶.
const PIO2_1: f32 = 1.570_312_5;
const PIO2_2: f32 = 4.844_665_5e-4;
const PIO2_3: f32 = -6.397_578_4e-7;
const PIO2_4: f32 = 5.390_303e-15;
/// Inputs of `exp2` are clamped to ±this first (2^±200 is already ∞ / 0).
const EXP2_LIMIT: f32 = 200.0;

/// Horner evaluation of `c[0] + x·(c[1] + x·(…))`.
fn horner<O: VecOps + ?Sized>(o: &mut O, x: O::F, c: &[f32]) -> O::F {
    let mut acc = o.fconst(c[c.len() - 1]);
    for &k in c[..c.len() - 1].iter().rev() {
        let p = o.fmul(acc, x);
        let kk = o.fconst(k);
        acc = o.fadd(p, kk);
    }
    acc
}

/// NaN lanes of `x` as a mask.
fn is_nan<O: VecOps + ?Sized>(o: &mut O, x: O::F) -> O::I {
    let eq = o.feq(x, x);
    let ones = o.iconst(-1);
    o.ixor(eq, ones)
}

/// `2^x`.
pub fn exp2<O: VecOps + ?Sized>(o: &mut O, x: O::F) -> O::F {
    let nan = is_nan(o, x);
    let zero = o.fconst(0.0);
    let x0 = o.fselect(nan, zero, x);
    let lo = o.fconst(-EXP2_LIMIT);
    let hi = o.fconst(EXP2_LIMIT);
    let below = o.flt(x0, lo);
    let x1 = o.fselect(below, lo, x0);
    let above = o.flt(hi, x1);
    let xc = o.fselect(above, hi, x1);
    let n = o.fround(xc);
    let f = o.fsub(xc, n);
    let q = horner(o, f, &EXP2_P);
    let fq = o.fmul(f, q);
    let one = o.fconst(1.0);
    let p = o.fadd(one, fq);
    // 2^n as 2^⌊n/2⌋ · 2^(n - ⌊n/2⌋), both exponents within [-100, 100].
    let ni = o.f_to_i(n);
    let n1 = o.sshr(ni, 1);
    let n2 = o.isub(ni, n1);
    let bias = o.iconst(127);
    let e1 = o.iadd(n1, bias);
    let e1 = o.ishl(e1, 23);
    let s1 = o.float_from_bits(e1);
    let e2 = o.iadd(n2, bias);
    let e2 = o.ishl(e2, 23);
    let s2 = o.float_from_bits(e2);
    let r = o.fmul(p, s1);
    let r = o.fmul(r, s2);
    o.fselect(nan, x, r)
}

/// `log2(x)`.
pub fn log2<O: VecOps + ?Sized>(o: &mut O, x: O::F) -> O::F {
    // Denormal inputs (exponent field 0) are scaled by 2^23 first.
    let bits = o.to_bits(x);
    let exp_mask = o.iconst(0x7f80_0000);
    let ef = o.iand(bits, exp_mask);
    let normal = o.inonzero(ef);
    let scale = o.fconst(8_388_608.0);
    let xs = o.fmul(x, scale);
    let xn = o.fselect(normal, x, xs);
    let adj_d = o.iconst(-23);
    let adj = o.iand(adj_d, normal);
    let adj = o.ixor(adj, adj_d); // 0 for normal inputs, -23 for denormal ones
    let b = o.to_bits(xn);
    let e = o.ushr(b, 23);
    let ff = o.iconst(0xff);
    let e = o.iand(e, ff);
    let e = o.iadd(e, adj);
    let bias = o.iconst(127);
    let e = o.isub(e, bias);
    let mant_mask = o.iconst(0x007f_ffff);
    let mb = o.iand(b, mant_mask);
    let one_bits = o.iconst(0x3f80_0000);
    let mb = o.ior(mb, one_bits);
    let m = o.float_from_bits(mb);
    // m ∈ [1, 2) → [√½, √2): halve m (exactly) above √2.
    let sqrt2 = o.fconst(std::f32::consts::SQRT_2);
    let big = o.flt(sqrt2, m);
    let half = o.fconst(0.5);
    let mh = o.fmul(m, half);
    let m = o.fselect(big, mh, m);
    let e = o.isub(e, big); // big is -1 where set
    let one = o.fconst(1.0);
    let num = o.fsub(m, one);
    let den = o.fadd(m, one);
    let t = o.fdiv(num, den);
    let s = o.fmul(t, t);
    let q = horner(o, s, &LOG2_Q);
    let l = o.fmul(t, q);
    let ef = o.i_to_f(e);
    let r = o.fadd(ef, l);
    // Special values.
    let zero = o.fconst(0.0);
    let inf = o.fconst(f32::INFINITY);
    let is_inf = o.feq(x, inf);
    let r = o.fselect(is_inf, inf, r);
    let neg = o.flt(x, zero);
    let nan = o.fconst(f32::NAN);
    let r = o.fselect(neg, nan, r);
    let is_zero = o.feq(x, zero);
    let ninf = o.fconst(f32::NEG_INFINITY);
    let r = o.fselect(is_zero, ninf, r);
    let xnan = is_nan(o, x);
    o.fselect(xnan, x, r)
}

/// `pow(x, y)` as `exp2(y · log2(x))` (GLSL's defining equation).
pub fn pow<O: VecOps + ?Sized>(o: &mut O, x: O::F, y: O::F) -> O::F {
    let l = log2(o, x);
    let p = o.fmul(y, l);
    exp2(o, p)
}

/// `sin(x)` (`cos == false`) or `cos(x)`.
fn sincos<O: VecOps + ?Sized>(o: &mut O, x: O::F, cos: bool) -> O::F {
    // Not finite (NaN, ±∞) → NaN; the reduction runs on 0 for those lanes.
    let zero = o.fconst(0.0);
    let inf = o.fconst(f32::INFINITY);
    let abs_mask = o.iconst(0x7fff_ffff);
    let xb = o.to_bits(x);
    let ab = o.iand(xb, abs_mask);
    let ax = o.float_from_bits(ab);
    let finite = o.flt(ax, inf);
    let xa = o.fselect(finite, x, zero);
    let two_over_pi = o.fconst(std::f32::consts::FRAC_2_PI);
    let kx = o.fmul(xa, two_over_pi);
    let k = o.fround(kx);
    let c1 = o.fconst(PIO2_1);
    let c2 = o.fconst(PIO2_2);
    let c3 = o.fconst(PIO2_3);
    let c4 = o.fconst(PIO2_4);
    let p1 = o.fmul(k, c1);
    let r = o.fsub(xa, p1);
    let p2 = o.fmul(k, c2);
    let r = o.fsub(r, p2);
    let p3 = o.fmul(k, c3);
    let r = o.fsub(r, p3);
    let p4 = o.fmul(k, c4);
    let r = o.fsub(r, p4);
    // Quadrant k mod 4, computed in floats (exact for every integral k).
    let quarter = o.fconst(0.25);
    let kq = o.fmul(k, quarter);
    let kf = o.ffloor(kq);
    let four = o.fconst(4.0);
    let k4 = o.fmul(kf, four);
    let q = o.fsub(k, k4);
    let q = o.f_to_i(q);
    let q = if cos {
        let one = o.iconst(1);
        o.iadd(q, one)
    } else {
        q
    };
    let s = o.fmul(r, r);
    let ps = horner(o, s, &SIN_S);
    let rs = o.fmul(r, s);
    let t = o.fmul(rs, ps);
    let sin_r = o.fadd(r, t);
    let pc = horner(o, s, &COS_C);
    let half = o.fconst(0.5);
    let hs = o.fmul(half, s);
    let one = o.fconst(1.0);
    let c0 = o.fsub(one, hs);
    let s2 = o.fmul(s, s);
    let t = o.fmul(s2, pc);
    let cos_r = o.fadd(c0, t);
    let one_i = o.iconst(1);
    let odd = o.iand(q, one_i);
    let odd = o.inonzero(odd);
    let v = o.fselect(odd, cos_r, sin_r);
    let two_i = o.iconst(2);
    let neg = o.iand(q, two_i);
    let sign = o.ishl(neg, 30);
    let vb = o.to_bits(v);
    let vb = o.ixor(vb, sign);
    let v = o.float_from_bits(vb);
    let nan = o.fconst(f32::NAN);
    o.fselect(finite, v, nan)
}

/// `sin(x)`.
pub fn sin<O: VecOps + ?Sized>(o: &mut O, x: O::F) -> O::F {
    sincos(o, x, false)
}

/// `cos(x)`.
pub fn cos<O: VecOps + ?Sized>(o: &mut O, x: O::F) -> O::F {
    sincos(o, x, true)
}

/// [`VecOps`] on one scalar lane.
#[derive(Copy, Clone, Debug, Default)]
pub struct Scalar;

fn mask(b: bool) -> i32 {
    if b {
        -1
    } else {
        0
    }
}

impl VecOps for Scalar {
    type F = f32;
    type I = i32;
    #[inline(always)]
    fn fconst(&mut self, x: f32) -> f32 {
        x
    }
    #[inline(always)]
    fn iconst(&mut self, x: i32) -> i32 {
        x
    }
    #[inline(always)]
    fn fadd(&mut self, a: f32, b: f32) -> f32 {
        a + b
    }
    #[inline(always)]
    fn fsub(&mut self, a: f32, b: f32) -> f32 {
        a - b
    }
    #[inline(always)]
    fn fmul(&mut self, a: f32, b: f32) -> f32 {
        a * b
    }
    #[inline(always)]
    fn fdiv(&mut self, a: f32, b: f32) -> f32 {
        a / b
    }
    #[inline(always)]
    fn fround(&mut self, a: f32) -> f32 {
        crate::texture::round_even_f32(a)
    }
    #[inline(always)]
    fn ffloor(&mut self, a: f32) -> f32 {
        crate::texture::floor_f32(a)
    }
    #[inline(always)]
    fn flt(&mut self, a: f32, b: f32) -> i32 {
        mask(a < b)
    }
    #[inline(always)]
    fn feq(&mut self, a: f32, b: f32) -> i32 {
        mask(a == b)
    }
    #[inline(always)]
    fn fselect(&mut self, m: i32, a: f32, b: f32) -> f32 {
        f32::from_bits((a.to_bits() & m as u32) | (b.to_bits() & !m as u32))
    }
    #[inline(always)]
    fn to_bits(&mut self, a: f32) -> i32 {
        a.to_bits() as i32
    }
    #[inline(always)]
    fn float_from_bits(&mut self, a: i32) -> f32 {
        f32::from_bits(a as u32)
    }
    #[inline(always)]
    fn f_to_i(&mut self, a: f32) -> i32 {
        a as i32
    }
    #[inline(always)]
    fn i_to_f(&mut self, a: i32) -> f32 {
        a as f32
    }
    #[inline(always)]
    fn iadd(&mut self, a: i32, b: i32) -> i32 {
        a.wrapping_add(b)
    }
    #[inline(always)]
    fn isub(&mut self, a: i32, b: i32) -> i32 {
        a.wrapping_sub(b)
    }
    #[inline(always)]
    fn iand(&mut self, a: i32, b: i32) -> i32 {
        a & b
    }
    #[inline(always)]
    fn ior(&mut self, a: i32, b: i32) -> i32 {
        a | b
    }
    #[inline(always)]
    fn ixor(&mut self, a: i32, b: i32) -> i32 {
        a ^ b
    }
    #[inline(always)]
    fn ishl(&mut self, a: i32, n: u32) -> i32 {
        a.wrapping_shl(n)
    }
    #[inline(always)]
    fn sshr(&mut self, a: i32, n: u32) -> i32 {
        a.wrapping_shr(n)
    }
    #[inline(always)]
    fn ushr(&mut self, a: i32, n: u32) -> i32 {
        (a as u32).wrapping_shr(n) as i32
    }
    #[inline(always)]
    fn inonzero(&mut self, a: i32) -> i32 {
        mask(a != 0)
    }
}

/// Scalar `exp2` (the interpreter's kernel and the tests' entry point).
#[inline(always)]
pub fn exp2_f32(x: f32) -> f32 {
    exp2(&mut Scalar, x)
}

/// Scalar `log2`.
#[inline(always)]
pub fn log2_f32(x: f32) -> f32 {
    log2(&mut Scalar, x)
}

/// Scalar `pow`.
#[inline(always)]
pub fn pow_f32(x: f32, y: f32) -> f32 {
    pow(&mut Scalar, x, y)
}

/// Scalar `sin`.
#[inline(always)]
pub fn sin_f32(x: f32) -> f32 {
    sin(&mut Scalar, x)
}

/// Scalar `cos`.
#[inline(always)]
pub fn cos_f32(x: f32) -> f32 {
    cos(&mut Scalar, x)
}
