//! The ALU opcode table: the ONE place where every ALU opcode is declared.
//!
//! Each row gives the name, output size and type, input sizes and types, algebraic
//! properties, a one-line description and a constant-fold expression. From the table the
//! [`alu_table!`] macro derives the [`Opcode`] enum, [`Opcode::info`], `Display`/`FromStr`,
//! the typed builder methods ([`crate::builder::Builder`]), the constant folder
//! ([`Opcode::fold_component`], used by [`crate::constant_fold`]) and the validator's
//! per-opcode type rules (through [`OpInfo`]).
//!
//! Sizes follow Mesa: output/input size 0 means "per component" (vectorizable, the
//! component count comes from the destination); a non-zero size is a fixed component
//! count (horizontal ops such as `fdot3`, `vec4`, `ball_fequal2`). Types with bit size 0
//! are unsized: all unsized operands and the unsized result share one bit size.
//!
//! Derivatives are modelled as intrinsics (`ddx`, `ddy`, ...), not ALU ops, because they
//! must not move across control flow or discards (see `intrinsics.rs`).

use std::fmt;

use half::f16;

/// Base type of an ALU operand.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Base {
    /// IEEE float.
    Float,
    /// Two's complement integer (signed interpretation).
    Int,
    /// Unsigned integer / raw bits.
    Uint,
    /// Boolean (0 / all ones; 1-bit in NIR's canonical form).
    Bool,
}

/// An ALU operand type: base plus bit size (0 = unsized).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct AluType {
    /// Base type.
    pub base: Base,
    /// Fixed bit size, or 0 when the operand takes the instruction's bit size.
    pub bits: u8,
}

impl fmt::Display for AluType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = match self.base {
            Base::Float => "float",
            Base::Int => "int",
            Base::Uint => "uint",
            Base::Bool => "bool",
        };
        if self.bits == 0 {
            f.write_str(b)
        } else {
            write!(f, "{b}{}", self.bits)
        }
    }
}

/// Type names usable in the table (Mesa spellings).
#[allow(non_upper_case_globals)]
mod ty {
    use super::{AluType, Base};
    pub const float: AluType = AluType {
        base: Base::Float,
        bits: 0,
    };
    pub const int: AluType = AluType {
        base: Base::Int,
        bits: 0,
    };
    pub const uint: AluType = AluType {
        base: Base::Uint,
        bits: 0,
    };
    pub const float32: AluType = AluType {
        base: Base::Float,
        bits: 32,
    };
    pub const int32: AluType = AluType {
        base: Base::Int,
        bits: 32,
    };
    pub const uint32: AluType = AluType {
        base: Base::Uint,
        bits: 32,
    };
    pub const bool1: AluType = AluType {
        base: Base::Bool,
        bits: 1,
    };
    pub const bool32: AluType = AluType {
        base: Base::Bool,
        bits: 32,
    };
}

/// `op(a, b) == op(b, a)` for the first two sources.
pub const COMMUTATIVE: u8 = 1;
/// `op(op(a, b), c) == op(a, op(b, c))`.
pub const ASSOCIATIVE: u8 = 2;
/// A selection (the first source chooses between the others).
pub const SELECTION: u8 = 4;

/// Static description of one opcode (one table row).
#[derive(Debug)]
pub struct OpInfo {
    /// Mesa name.
    pub name: &'static str,
    /// Output component count (0 = per component).
    pub output_size: u8,
    /// Output type.
    pub output_type: AluType,
    /// Component count read from each source (0 = same as the output).
    pub input_sizes: &'static [u8],
    /// Type of each source.
    pub input_types: &'static [AluType],
    /// `COMMUTATIVE | ASSOCIATIVE | SELECTION` bits.
    pub props: u8,
    /// One-line description.
    pub description: &'static str,
}

impl OpInfo {
    /// Number of sources.
    pub fn num_inputs(&self) -> usize {
        self.input_sizes.len()
    }
    /// True for commutative opcodes.
    pub fn is_commutative(&self) -> bool {
        self.props & COMMUTATIVE != 0
    }
    /// True for associative opcodes.
    pub fn is_associative(&self) -> bool {
        self.props & ASSOCIATIVE != 0
    }
}

/// A folded component value in a type-neutral form, encoded by the destination size.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Val {
    /// Float (rounded to the destination bit size on encoding).
    F(f64),
    /// Signed integer (truncated to the destination bit size).
    I(i64),
    /// Unsigned bits (truncated to the destination bit size).
    U(u64),
    /// Boolean (1 in 1-bit values, all ones otherwise).
    B(bool),
}

/// Read access to constant sources while folding one destination component.
pub struct Fold<'a> {
    /// Destination component being computed.
    pub comp: usize,
    /// Execution bit size (bit size of the unsized operands).
    pub bits: u8,
    /// Per source: (bit size, swizzled component values as raw bits).
    pub srcs: &'a [(u8, Vec<u64>)],
}

impl Fold<'_> {
    fn raw(&self, src: usize, comp: usize) -> (u8, u64) {
        let (bits, vals) = &self.srcs[src];
        (*bits, vals.get(comp).copied().unwrap_or(0))
    }
    /// Float value of `src` at the current component.
    pub fn f(&self, src: usize) -> f64 {
        self.fc(src, self.comp)
    }
    /// Float value of component `comp` of `src`.
    pub fn fc(&self, src: usize, comp: usize) -> f64 {
        let (bits, v) = self.raw(src, comp);
        match bits {
            16 => f64::from(f16::from_bits(v as u16).to_f32()),
            32 => f32::from_bits(v as u32) as f64,
            _ => f64::from_bits(v),
        }
    }
    /// Signed value of `src` at the current component.
    pub fn i(&self, src: usize) -> i64 {
        self.ic(src, self.comp)
    }
    /// Signed value of component `comp` of `src`.
    pub fn ic(&self, src: usize, comp: usize) -> i64 {
        let (bits, v) = self.raw(src, comp);
        sign_extend(v, bits)
    }
    /// Unsigned value of `src` at the current component.
    pub fn u(&self, src: usize) -> u64 {
        self.uc(src, self.comp)
    }
    /// Unsigned value of component `comp` of `src`.
    pub fn uc(&self, src: usize, comp: usize) -> u64 {
        let (bits, v) = self.raw(src, comp);
        v & mask(bits)
    }
    /// Boolean value of `src` at the current component.
    pub fn b(&self, src: usize) -> bool {
        self.u(src) != 0
    }
    /// Shift amount for `src`, masked to the execution bit size.
    fn shift(&self, src: usize) -> u32 {
        (self.u(src) as u32) & (u32::from(self.bits.max(1)) - 1)
    }
}

/// All-ones mask of `bits` bits.
pub fn mask(bits: u8) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Sign-extends the low `bits` bits of `v`.
pub fn sign_extend(v: u64, bits: u8) -> i64 {
    if bits == 0 || bits >= 64 {
        v as i64
    } else {
        let shift = 64 - u32::from(bits);
        ((v << shift) as i64) >> shift
    }
}

/// Encodes a folded value as raw bits of a `bits`-bit destination of base type `base`.
/// Returns `None` for float sizes we cannot represent.
pub fn encode(val: Val, bits: u8) -> Option<u64> {
    Some(match val {
        Val::F(x) => match bits {
            16 => u64::from(f16::from_f32(x as f32).to_bits()),
            32 => u64::from((x as f32).to_bits()),
            64 => x.to_bits(),
            _ => return None,
        },
        Val::I(x) => (x as u64) & mask(bits),
        Val::U(x) => x & mask(bits),
        Val::B(b) => {
            if b {
                mask(bits)
            } else {
                0
            }
        }
    })
}

fn pack2x16(x: &Fold, f: impl Fn(f64) -> u16) -> Val {
    Val::U(u64::from(f(x.fc(0, 0))) | (u64::from(f(x.fc(0, 1))) << 16))
}

fn pack4x8(x: &Fold, f: impl Fn(f64) -> u8) -> Val {
    let mut v = 0u64;
    for c in 0..4 {
        v |= u64::from(f(x.fc(0, c))) << (8 * c);
    }
    Val::U(v)
}

fn snorm16(v: f64) -> u16 {
    (v.clamp(-1.0, 1.0) * 32767.0).round_ties_even() as i16 as u16
}
fn unorm16(v: f64) -> u16 {
    (v.clamp(0.0, 1.0) * 65535.0).round_ties_even() as u16
}
fn snorm8(v: f64) -> u8 {
    (v.clamp(-1.0, 1.0) * 127.0).round_ties_even() as i8 as u8
}
fn unorm8(v: f64) -> u8 {
    (v.clamp(0.0, 1.0) * 255.0).round_ties_even() as u8
}

fn sign_f(a: f64) -> f64 {
    if a.is_nan() {
        0.0
    } else if a == 0.0 {
        a
    } else if a > 0.0 {
        1.0
    } else {
        -1.0
    }
}

fn imod(a: i64, b: i64) -> i64 {
    if b == 0 {
        return 0;
    }
    let r = a.wrapping_rem(b);
    if r == 0 || (a >= 0) == (b >= 0) {
        r
    } else {
        r + b
    }
}

fn find_msb_u(v: u64) -> i64 {
    if v == 0 {
        -1
    } else {
        63 - i64::from(v.leading_zeros())
    }
}

fn ifind_msb(v: i64, bits: u8) -> i64 {
    let u = if v < 0 { !v } else { v } as u64 & mask(bits);
    find_msb_u(u)
}

/// Mesa's `ubitfield_extract`: `bits` bits of `base` from `offset`; 0 when
/// `bits` is 0 or a count is negative, `base >> offset` when the field runs past
/// bit 31 (GLSL 4.00 §8.8 leaves `offset + bits > 32` undefined).
pub fn ubitfield_extract(base: u32, offset: i32, bits: i32) -> u32 {
    if bits <= 0 || offset < 0 {
        0
    } else if offset.saturating_add(bits) < 32 {
        (base << (32 - bits - offset)) >> (32 - bits)
    } else if offset >= 32 {
        0
    } else {
        base >> offset
    }
}

/// Mesa's `ibitfield_extract`: as [`ubitfield_extract`] with the field's top bit
/// copied into the high bits of the result.
pub fn ibitfield_extract(base: i32, offset: i32, bits: i32) -> i32 {
    if bits <= 0 || offset < 0 {
        0
    } else if offset.saturating_add(bits) < 32 {
        (base << (32 - bits - offset)) >> (32 - bits)
    } else if offset >= 32 {
        0
    } else {
        base >> offset
    }
}

/// Mesa's `bitfield_insert`: `base` with bits `[offset, offset + bits)` taken
/// from the low bits of `insert`; `base` when `bits` is 0, 0 for a field the
/// spec leaves undefined (negative counts or `offset + bits > 32`).
pub fn bitfield_insert(base: u32, insert: u32, offset: i32, bits: i32) -> u32 {
    if bits == 0 {
        base
    } else if offset < 0 || bits < 0 || offset.saturating_add(bits) > 32 {
        0
    } else {
        let mask = (((1u64 << bits) - 1) << offset) as u32;
        (base & !mask) | ((insert << offset) & mask)
    }
}

/// C `frexp` (GLSL 4.00 §8.3): `(s, e)` with `a = s * 2^e`, `0.5 <= |s| < 1`;
/// zero, infinity and NaN give `(a, 0)`. Exact for every finite `f64`,
/// subnormals included.
pub fn frexp(a: f64) -> (f64, i32) {
    if a == 0.0 || !a.is_finite() {
        return (a, 0);
    }
    // Scale subnormals into the normal range first (2^64 is exact).
    let (a, bias) = if a.abs() < f64::MIN_POSITIVE {
        (a * 18_446_744_073_709_551_616.0, -64)
    } else {
        (a, 0)
    };
    let bits = a.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32 - 1022;
    let sig = f64::from_bits((bits & !(0x7ffu64 << 52)) | (1022u64 << 52));
    (sig, exp + bias)
}

fn horizontal_all(_x: &Fold, n: usize, eq: impl Fn(usize) -> bool) -> Val {
    Val::B((0..n).all(eq))
}

/// Marker expansion helper: each input contributes one to an arity count.
macro_rules! one {
    ($t:tt) => {
        1
    };
}

macro_rules! alu_table {
    ($(
        $variant:ident $name:literal : $out_size:literal $out_ty:ident
        ( $( $in_size:literal $in_ty:ident ),* ) [$props:expr]
        $desc:literal
        |$x:ident| $fold:expr ;
    )*) => {
        /// Every ALU opcode (see the table in `opcodes.rs`).
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[allow(non_camel_case_types)]
        pub enum Opcode {
            $(
                #[doc = $desc]
                $variant,
            )*
        }

        impl Opcode {
            /// Every opcode in table order.
            pub const ALL: &'static [Opcode] = &[$(Opcode::$variant),*];

            /// The table row of this opcode.
            pub fn info(self) -> &'static OpInfo {
                match self {
                    $(Opcode::$variant => {
                        static INFO: OpInfo = OpInfo {
                            name: $name,
                            output_size: $out_size,
                            output_type: ty::$out_ty,
                            input_sizes: &[$($in_size),*],
                            input_types: &[$(ty::$in_ty),*],
                            props: $props,
                            description: $desc,
                        };
                        &INFO
                    })*
                }
            }

            /// Evaluates destination component `x.comp` on constant sources.
            #[allow(unused_variables, clippy::redundant_closure_call)]
            pub fn fold_component(self, x: &Fold) -> Val {
                match self {
                    $(Opcode::$variant => { let $x = x; $fold })*
                }
            }
        }

        impl<'f> crate::builder::Builder<'f> {
            $(
                #[doc = concat!("Builds `", $name, "`: ", $desc)]
                pub fn $variant(&mut self, srcs: [crate::ir::Def; 0 $(+ one!($in_size))*]) -> crate::ir::Def {
                    self.alu_defs(Opcode::$variant, &srcs)
                }
            )*
        }
    };
}

impl fmt::Display for Opcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.info().name)
    }
}

impl std::str::FromStr for Opcode {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        Opcode::ALL
            .iter()
            .copied()
            .find(|op| op.info().name == s)
            .ok_or(())
    }
}

use Val::{B, F, I, U};

alu_table! {
    // ---- moves and vector construction ----
    mov "mov": 0 uint (0 uint) [0] "copy (bitcasts are movs)" |x| U(x.u(0));
    vec2 "vec2": 2 uint (1 uint, 1 uint) [0] "build a 2-vector from scalars" |x| U(x.uc(x.comp, 0));
    vec3 "vec3": 3 uint (1 uint, 1 uint, 1 uint) [0] "build a 3-vector from scalars" |x| U(x.uc(x.comp, 0));
    vec4 "vec4": 4 uint (1 uint, 1 uint, 1 uint, 1 uint) [0] "build a 4-vector from scalars" |x| U(x.uc(x.comp, 0));
    // ---- float arithmetic ----
    fadd "fadd": 0 float (0 float, 0 float) [COMMUTATIVE | ASSOCIATIVE] "a + b" |x| F(x.f(0) + x.f(1));
    fsub "fsub": 0 float (0 float, 0 float) [0] "a - b" |x| F(x.f(0) - x.f(1));
    fmul "fmul": 0 float (0 float, 0 float) [COMMUTATIVE | ASSOCIATIVE] "a * b" |x| F(x.f(0) * x.f(1));
    fdiv "fdiv": 0 float (0 float, 0 float) [0] "a / b" |x| F(x.f(0) / x.f(1));
    ffma "ffma": 0 float (0 float, 0 float, 0 float) [COMMUTATIVE] "fused a * b + c" |x| F(x.f(0).mul_add(x.f(1), x.f(2)));
    fneg "fneg": 0 float (0 float) [0] "-a" |x| F(-x.f(0));
    fabs "fabs": 0 float (0 float) [0] "|a|" |x| F(x.f(0).abs());
    fsat "fsat": 0 float (0 float) [0] "clamp(a, 0, 1), NaN -> 0" |x| {
        let a = x.f(0);
        F(if a > 1.0 { 1.0 } else if a >= 0.0 { a } else { 0.0 })
    };
    fsign "fsign": 0 float (0 float) [0] "sign(a): -1, 0 or 1 (NaN -> 0)" |x| F(sign_f(x.f(0)));
    fmin "fmin": 0 float (0 float, 0 float) [COMMUTATIVE | ASSOCIATIVE] "min(a, b), ignoring a NaN operand" |x| F(x.f(0).min(x.f(1)));
    fmax "fmax": 0 float (0 float, 0 float) [COMMUTATIVE | ASSOCIATIVE] "max(a, b), ignoring a NaN operand" |x| F(x.f(0).max(x.f(1)));
    fmod "fmod": 0 float (0 float, 0 float) [0] "a - b * floor(a / b) (GLSL mod)" |x| F(x.f(0) - x.f(1) * (x.f(0) / x.f(1)).floor());
    frem "frem": 0 float (0 float, 0 float) [0] "a - b * trunc(a / b) (C fmod)" |x| F(x.f(0) - x.f(1) * (x.f(0) / x.f(1)).trunc());
    flrp "flrp": 0 float (0 float, 0 float, 0 float) [0] "a * (1 - c) + b * c" |x| F(x.f(0) * (1.0 - x.f(2)) + x.f(1) * x.f(2));
    fdot2 "fdot2": 1 float (2 float, 2 float) [COMMUTATIVE] "2-component dot product" |x| F((0..2).map(|c| x.fc(0, c) * x.fc(1, c)).sum());
    fdot3 "fdot3": 1 float (3 float, 3 float) [COMMUTATIVE] "3-component dot product" |x| F((0..3).map(|c| x.fc(0, c) * x.fc(1, c)).sum());
    fdot4 "fdot4": 1 float (4 float, 4 float) [COMMUTATIVE] "4-component dot product" |x| F((0..4).map(|c| x.fc(0, c) * x.fc(1, c)).sum());
    ffloor "ffloor": 0 float (0 float) [0] "round towards -inf" |x| F(x.f(0).floor());
    fceil "fceil": 0 float (0 float) [0] "round towards +inf" |x| F(x.f(0).ceil());
    ftrunc "ftrunc": 0 float (0 float) [0] "round towards zero" |x| F(x.f(0).trunc());
    ffract "ffract": 0 float (0 float) [0] "a - floor(a)" |x| F(x.f(0) - x.f(0).floor());
    fround_even "fround_even": 0 float (0 float) [0] "round to nearest, ties to even" |x| F(x.f(0).round_ties_even());
    fpow "fpow": 0 float (0 float, 0 float) [0] "a raised to b" |x| F(x.f(0).powf(x.f(1)));
    ldexp "ldexp": 0 float (0 float, 0 int32) [0] "a * 2^b" |x| F(x.f(0) * 2f64.powi(x.i(1).clamp(-2000, 2000) as i32));
    frexp_sig "frexp_sig": 0 float (0 float) [0] "significand of a in [0.5, 1) with a's sign (0, inf, NaN: a)" |x| F(frexp(x.f(0)).0);
    frexp_exp "frexp_exp": 0 int32 (0 float) [0] "exponent e with a = frexp_sig(a) * 2^e (0 for 0, inf, NaN)" |x| I(i64::from(frexp(x.f(0)).1));
    // ---- transcendental ----
    frcp "frcp": 0 float (0 float) [0] "1 / a" |x| F(1.0 / x.f(0));
    frsq "frsq": 0 float (0 float) [0] "1 / sqrt(a)" |x| F(1.0 / x.f(0).sqrt());
    fsqrt "fsqrt": 0 float (0 float) [0] "sqrt(a)" |x| F(x.f(0).sqrt());
    fexp2 "fexp2": 0 float (0 float) [0] "2^a" |x| F(x.f(0).exp2());
    flog2 "flog2": 0 float (0 float) [0] "log2(a)" |x| F(x.f(0).log2());
    fsin "fsin": 0 float (0 float) [0] "sin(a)" |x| F(x.f(0).sin());
    fcos "fcos": 0 float (0 float) [0] "cos(a)" |x| F(x.f(0).cos());
    // ---- integer arithmetic ----
    iadd "iadd": 0 int (0 int, 0 int) [COMMUTATIVE | ASSOCIATIVE] "a + b (wrapping)" |x| I(x.i(0).wrapping_add(x.i(1)));
    isub "isub": 0 int (0 int, 0 int) [0] "a - b (wrapping)" |x| I(x.i(0).wrapping_sub(x.i(1)));
    imul "imul": 0 int (0 int, 0 int) [COMMUTATIVE | ASSOCIATIVE] "a * b (low bits)" |x| I(x.i(0).wrapping_mul(x.i(1)));
    idiv "idiv": 0 int (0 int, 0 int) [0] "signed a / b rounding to zero (b == 0 -> 0)" |x| I(if x.i(1) == 0 { 0 } else { x.i(0).wrapping_div(x.i(1)) });
    udiv "udiv": 0 uint (0 uint, 0 uint) [0] "unsigned a / b (b == 0 -> 0)" |x| U(if x.u(1) == 0 { 0 } else { x.u(0) / x.u(1) });
    imod "imod": 0 int (0 int, 0 int) [0] "signed modulo with the sign of b (b == 0 -> 0)" |x| I(imod(x.i(0), x.i(1)));
    irem "irem": 0 int (0 int, 0 int) [0] "signed remainder with the sign of a (b == 0 -> 0)" |x| I(if x.i(1) == 0 { 0 } else { x.i(0).wrapping_rem(x.i(1)) });
    umod "umod": 0 uint (0 uint, 0 uint) [0] "unsigned a % b (b == 0 -> 0)" |x| U(if x.u(1) == 0 { 0 } else { x.u(0) % x.u(1) });
    ineg "ineg": 0 int (0 int) [0] "-a (wrapping)" |x| I(x.i(0).wrapping_neg());
    iabs "iabs": 0 int (0 int) [0] "|a| (wrapping)" |x| I(x.i(0).wrapping_abs());
    isign "isign": 0 int (0 int) [0] "sign(a): -1, 0 or 1" |x| I(x.i(0).signum());
    imin "imin": 0 int (0 int, 0 int) [COMMUTATIVE | ASSOCIATIVE] "signed minimum" |x| I(x.i(0).min(x.i(1)));
    imax "imax": 0 int (0 int, 0 int) [COMMUTATIVE | ASSOCIATIVE] "signed maximum" |x| I(x.i(0).max(x.i(1)));
    umin "umin": 0 uint (0 uint, 0 uint) [COMMUTATIVE | ASSOCIATIVE] "unsigned minimum" |x| U(x.u(0).min(x.u(1)));
    umax "umax": 0 uint (0 uint, 0 uint) [COMMUTATIVE | ASSOCIATIVE] "unsigned maximum" |x| U(x.u(0).max(x.u(1)));
    imul_high "imul_high": 0 int (0 int, 0 int) [COMMUTATIVE] "high half of the signed double-width product" |x| I(((i128::from(x.i(0)) * i128::from(x.i(1))) >> x.bits) as i64);
    umul_high "umul_high": 0 uint (0 uint, 0 uint) [COMMUTATIVE] "high half of the unsigned double-width product" |x| U(((u128::from(x.u(0)) * u128::from(x.u(1))) >> x.bits) as u64);
    uadd_carry "uadd_carry": 0 uint (0 uint, 0 uint) [COMMUTATIVE] "carry out of a + b (0 or 1)" |x| U(u64::from(x.u(0).checked_add(x.u(1)).is_none_or(|s| s > mask(x.bits))));
    usub_borrow "usub_borrow": 0 uint (0 uint, 0 uint) [0] "borrow of a - b (0 or 1)" |x| U(u64::from(x.u(0) < x.u(1)));
    // ---- bit operations (also the boolean and/or/xor/not on 1-bit values) ----
    iand "iand": 0 uint (0 uint, 0 uint) [COMMUTATIVE | ASSOCIATIVE] "bitwise and" |x| U(x.u(0) & x.u(1));
    ior "ior": 0 uint (0 uint, 0 uint) [COMMUTATIVE | ASSOCIATIVE] "bitwise or" |x| U(x.u(0) | x.u(1));
    ixor "ixor": 0 uint (0 uint, 0 uint) [COMMUTATIVE | ASSOCIATIVE] "bitwise xor" |x| U(x.u(0) ^ x.u(1));
    inot "inot": 0 uint (0 uint) [0] "bitwise not" |x| U(!x.u(0));
    ishl "ishl": 0 int (0 int, 0 uint32) [0] "a << (b % bits)" |x| U(x.u(0) << x.shift(1));
    ishr "ishr": 0 int (0 int, 0 uint32) [0] "arithmetic a >> (b % bits)" |x| I(x.i(0) >> x.shift(1));
    ushr "ushr": 0 uint (0 uint, 0 uint32) [0] "logical a >> (b % bits)" |x| U(x.u(0) >> x.shift(1));
    bitfield_reverse "bitfield_reverse": 0 uint32 (0 uint32) [0] "reverse the bit order" |x| U(u64::from((x.u(0) as u32).reverse_bits()));
    bit_count "bit_count": 0 uint32 (0 uint) [0] "number of set bits" |x| U(u64::from(x.u(0).count_ones()));
    ufind_msb "ufind_msb": 0 int32 (0 uint) [0] "index of the highest set bit, -1 if none" |x| I(find_msb_u(x.u(0)));
    ifind_msb "ifind_msb": 0 int32 (0 int) [0] "index of the highest bit differing from the sign, -1 if none" |x| I(ifind_msb(x.i(0), x.srcs[0].0));
    ubitfield_extract "ubitfield_extract": 0 uint32 (0 uint32, 0 int32, 0 int32) [0] "bits [c, c + b) of a, zero-extended (0 when b is 0 or either count is negative)" |x| U(u64::from(ubitfield_extract(x.u(0) as u32, x.i(1) as i32, x.i(2) as i32)));
    ibitfield_extract "ibitfield_extract": 0 int32 (0 int32, 0 int32, 0 int32) [0] "bits [c, c + b) of a, sign-extended (0 when b is 0 or either count is negative)" |x| I(i64::from(ibitfield_extract(x.i(0) as i32, x.i(1) as i32, x.i(2) as i32)));
    bitfield_insert "bitfield_insert": 0 uint32 (0 uint32, 0 uint32, 0 int32, 0 int32) [0] "a with bits [c, c + d) replaced by the low d bits of b (a when d is 0, 0 when out of range)" |x| U(u64::from(bitfield_insert(x.u(0) as u32, x.u(1) as u32, x.i(2) as i32, x.i(3) as i32)));
    find_lsb "find_lsb": 0 int32 (0 int) [0] "index of the lowest set bit, -1 if none" |x| I(if x.u(0) == 0 { -1 } else { i64::from(x.u(0).trailing_zeros()) });
    // ---- comparisons (1-bit boolean results) ----
    flt "flt": 0 bool1 (0 float, 0 float) [0] "a < b (false if unordered)" |x| B(x.f(0) < x.f(1));
    fge "fge": 0 bool1 (0 float, 0 float) [0] "a >= b (false if unordered)" |x| B(x.f(0) >= x.f(1));
    feq "feq": 0 bool1 (0 float, 0 float) [COMMUTATIVE] "a == b (false if unordered)" |x| B(x.f(0) == x.f(1));
    fneu "fneu": 0 bool1 (0 float, 0 float) [COMMUTATIVE] "a != b (true if unordered)" |x| B(x.f(0) != x.f(1));
    ilt "ilt": 0 bool1 (0 int, 0 int) [0] "signed a < b" |x| B(x.i(0) < x.i(1));
    ige "ige": 0 bool1 (0 int, 0 int) [0] "signed a >= b" |x| B(x.i(0) >= x.i(1));
    ieq "ieq": 0 bool1 (0 int, 0 int) [COMMUTATIVE] "a == b" |x| B(x.u(0) == x.u(1));
    ine "ine": 0 bool1 (0 int, 0 int) [COMMUTATIVE] "a != b" |x| B(x.u(0) != x.u(1));
    ult "ult": 0 bool1 (0 uint, 0 uint) [0] "unsigned a < b" |x| B(x.u(0) < x.u(1));
    uge "uge": 0 bool1 (0 uint, 0 uint) [0] "unsigned a >= b" |x| B(x.u(0) >= x.u(1));
    ball_fequal2 "ball_fequal2": 1 bool1 (2 float, 2 float) [COMMUTATIVE] "all components equal (2)" |x| horizontal_all(x, 2, |c| x.fc(0, c) == x.fc(1, c));
    ball_fequal3 "ball_fequal3": 1 bool1 (3 float, 3 float) [COMMUTATIVE] "all components equal (3)" |x| horizontal_all(x, 3, |c| x.fc(0, c) == x.fc(1, c));
    ball_fequal4 "ball_fequal4": 1 bool1 (4 float, 4 float) [COMMUTATIVE] "all components equal (4)" |x| horizontal_all(x, 4, |c| x.fc(0, c) == x.fc(1, c));
    bany_fnequal2 "bany_fnequal2": 1 bool1 (2 float, 2 float) [COMMUTATIVE] "any component differs (2)" |x| B((0..2).any(|c| x.fc(0, c) != x.fc(1, c)));
    bany_fnequal3 "bany_fnequal3": 1 bool1 (3 float, 3 float) [COMMUTATIVE] "any component differs (3)" |x| B((0..3).any(|c| x.fc(0, c) != x.fc(1, c)));
    bany_fnequal4 "bany_fnequal4": 1 bool1 (4 float, 4 float) [COMMUTATIVE] "any component differs (4)" |x| B((0..4).any(|c| x.fc(0, c) != x.fc(1, c)));
    ball_iequal2 "ball_iequal2": 1 bool1 (2 int, 2 int) [COMMUTATIVE] "all components equal (2)" |x| horizontal_all(x, 2, |c| x.uc(0, c) == x.uc(1, c));
    ball_iequal3 "ball_iequal3": 1 bool1 (3 int, 3 int) [COMMUTATIVE] "all components equal (3)" |x| horizontal_all(x, 3, |c| x.uc(0, c) == x.uc(1, c));
    ball_iequal4 "ball_iequal4": 1 bool1 (4 int, 4 int) [COMMUTATIVE] "all components equal (4)" |x| horizontal_all(x, 4, |c| x.uc(0, c) == x.uc(1, c));
    bany_inequal2 "bany_inequal2": 1 bool1 (2 int, 2 int) [COMMUTATIVE] "any component differs (2)" |x| B((0..2).any(|c| x.uc(0, c) != x.uc(1, c)));
    bany_inequal3 "bany_inequal3": 1 bool1 (3 int, 3 int) [COMMUTATIVE] "any component differs (3)" |x| B((0..3).any(|c| x.uc(0, c) != x.uc(1, c)));
    bany_inequal4 "bany_inequal4": 1 bool1 (4 int, 4 int) [COMMUTATIVE] "any component differs (4)" |x| B((0..4).any(|c| x.uc(0, c) != x.uc(1, c)));
    // ---- selection ----
    bcsel "bcsel": 0 uint (0 bool1, 0 uint, 0 uint) [SELECTION] "a ? b : c (1-bit condition)" |x| U(if x.b(0) { x.u(1) } else { x.u(2) });
    fcsel "fcsel": 0 float (0 float, 0 float, 0 float) [SELECTION] "a != 0.0 ? b : c (float condition)" |x| F(if x.f(0) != 0.0 { x.f(1) } else { x.f(2) });
    // ---- conversions ----
    f2i32 "f2i32": 0 int32 (0 float) [0] "float to int32, rounding to zero (saturating)" |x| I(x.f(0) as i32 as i64);
    f2u32 "f2u32": 0 uint32 (0 float) [0] "float to uint32, rounding to zero (saturating)" |x| U(u64::from(x.f(0) as u32));
    i2f32 "i2f32": 0 float32 (0 int) [0] "signed int to float32" |x| F(x.i(0) as f32 as f64);
    u2f32 "u2f32": 0 float32 (0 uint) [0] "unsigned int to float32" |x| F(x.u(0) as f32 as f64);
    f2f32 "f2f32": 0 float32 (0 float) [0] "float of any size to float32" |x| F(x.f(0));
    i2i32 "i2i32": 0 int32 (0 int) [0] "sign-extend or truncate to 32 bits" |x| I(x.i(0));
    u2u32 "u2u32": 0 uint32 (0 uint) [0] "zero-extend or truncate to 32 bits" |x| U(x.u(0));
    b2f32 "b2f32": 0 float32 (0 bool1) [0] "bool to 0.0 / 1.0" |x| F(if x.b(0) { 1.0 } else { 0.0 });
    b2i32 "b2i32": 0 int32 (0 bool1) [0] "bool to 0 / 1" |x| I(i64::from(x.b(0)));
    b2b1 "b2b1": 0 bool1 (0 bool32) [0] "32-bit bool to 1-bit bool" |x| B(x.b(0));
    b2b32 "b2b32": 0 bool32 (0 bool1) [0] "1-bit bool to 32-bit bool (0 / ~0)" |x| B(x.b(0));
    f2b1 "f2b1": 0 bool1 (0 float) [0] "a != 0.0" |x| B(x.f(0) != 0.0);
    i2b1 "i2b1": 0 bool1 (0 int) [0] "a != 0" |x| B(x.u(0) != 0);
    // ---- packing ----
    pack_half_2x16 "pack_half_2x16": 1 uint32 (2 float32) [0] "two floats to halves in one word" |x| pack2x16(x, |v| f16::from_f32(v as f32).to_bits());
    unpack_half_2x16 "unpack_half_2x16": 2 float32 (1 uint32) [0] "two halves of a word to floats" |x| F(f64::from(f16::from_bits((x.uc(0, 0) >> (16 * x.comp)) as u16).to_f32()));
    pack_snorm_2x16 "pack_snorm_2x16": 1 uint32 (2 float32) [0] "two floats to 16-bit snorm" |x| pack2x16(x, snorm16);
    pack_unorm_2x16 "pack_unorm_2x16": 1 uint32 (2 float32) [0] "two floats to 16-bit unorm" |x| pack2x16(x, unorm16);
    unpack_snorm_2x16 "unpack_snorm_2x16": 2 float32 (1 uint32) [0] "16-bit snorm pair to floats" |x| F((f64::from((x.uc(0, 0) >> (16 * x.comp)) as u16 as i16) / 32767.0).clamp(-1.0, 1.0));
    unpack_unorm_2x16 "unpack_unorm_2x16": 2 float32 (1 uint32) [0] "16-bit unorm pair to floats" |x| F(f64::from((x.uc(0, 0) >> (16 * x.comp)) as u16) / 65535.0);
    pack_snorm_4x8 "pack_snorm_4x8": 1 uint32 (4 float32) [0] "four floats to 8-bit snorm" |x| pack4x8(x, snorm8);
    pack_unorm_4x8 "pack_unorm_4x8": 1 uint32 (4 float32) [0] "four floats to 8-bit unorm" |x| pack4x8(x, unorm8);
    unpack_snorm_4x8 "unpack_snorm_4x8": 4 float32 (1 uint32) [0] "8-bit snorm quad to floats" |x| F((f64::from((x.uc(0, 0) >> (8 * x.comp)) as u8 as i8) / 127.0).clamp(-1.0, 1.0));
    unpack_unorm_4x8 "unpack_unorm_4x8": 4 float32 (1 uint32) [0] "8-bit unorm quad to floats" |x| F(f64::from((x.uc(0, 0) >> (8 * x.comp)) as u8) / 255.0);
}
