//! When rgl's shader execution (the JIT and the lane interpreter, which agree bit
//! for bit) and the reference interpreter `rgl_nir::eval` may differ, and by how
//! much.
//!
//! `rgl_nir::eval` computes every ALU op with the opcode table's fold expression
//! (f64 arithmetic rounded once to f32, the f64 library's transcendentals). The
//! backends follow GLSL's precision rules instead (GLSL 1.30–4.60 §4.7.1 "Range
//! and Precision"): `fdot*`, `ffma`, `flrp`, `fmod` and `frsq` are evaluated as
//! their defining equations with every operation rounded to f32 ("dot, mix, fma
//! inherit from a * b + c", each a correctly rounded op; `inversesqrt` may be off
//! by 2 ULP), and `fexp2`, `flog2`, `fpow`, `fsin`, `fcos` by the polynomials of
//! `rgl_backend::fastmath` (within 2 ULP, `log2` 2⁻²³ absolute in [0.5, 2],
//! `sin`/`cos` 2⁻²² absolute; `backend/tests/fastmath.rs` checks it). Every other
//! op gives the folder's result exactly.
//!
//! [`inexact_outputs`] finds the output components whose value depends, through
//! data flow (SSA sources, phis, local variables, texture coordinates), on one of
//! those inexact ops. Those float outputs are compared with [`within_bound`]; every
//! other output keeps the strict rule of its test (integers bit for bit).
//!
//! The bound. Each inexact op is within a few f32 rounding units u = 2⁻²⁴ of its
//! exact value, relative to the magnitude of its operands (GLSL's rules above);
//! the errors add up along the dependent ops (up to a few dozen in the corpus's
//! longest chains) and cancellation in later sums amplifies them relative to
//! the result. [`REL_TOL`] = 2⁻¹² = 4096 u allows 64 such roundings amplified
//! 64-fold; [`ABS_TOL`] = 2⁻¹⁶ covers results that cancelled to near zero from
//! operands of magnitude up to 2⁴ (the tests' inputs and uniforms are in
//! [-2, 2]). Like translation validation's bound this is a tolerance, not a
//! proof: how far rounding errors travel depends on each shader's conditioning.
//! Measured over the corpus (2026-11-26): 10 880 output comparisons differ from
//! eval beyond 2 ULP; the largest differences are 1.1·10⁻⁴ relative
//! (2.4·10⁻⁵ absolute, a Gerstner-wave water vertex shader summing `sin`/`cos`
//! of arguments near 30) and the bound leaves 2× headroom over them, while a
//! wrong formula (a swapped `mix` operand, a polynomial off by one
//! coefficient) is off by 10⁻³ or more.
//!
//! `pow(x, y)` is NaN where GLSL leaves it undefined (x < 0, or x = 0 with
//! y <= 0, where the f64 library returns numbers): [`pow_outputs`] lists the
//! outputs depending on a `pow`, where a NaN against a number counts as that
//! undefined case (the tests count those lanes separately).
//!
//! Control dependence is not tracked: a comparison of an inexact value that
//! flips near its threshold changes the outputs it selects; with the tests'
//! random inputs that is rare enough to show up, and be looked at, as a
//! mismatch.

use std::collections::BTreeSet;

use rgl_nir::arena::EntityRef;

use rgl_nir::intrinsics::{IndexKind, IntrinsicOp};
use rgl_nir::ir::{DerefKind, FunctionImpl, InstrKind, Intrinsic, VarId};
use rgl_nir::opcodes::Opcode;

/// Largest relative difference accepted for an output that depends on an inexact op.
pub const REL_TOL: f64 = 1.0 / 4096.0;
/// Largest absolute difference accepted for such an output.
pub const ABS_TOL: f64 = 1.0 / 65536.0;

/// Ops whose backend result may differ from the folder's (see the module doc).
pub fn inexact(op: Opcode) -> bool {
    use Opcode as O;
    matches!(
        op,
        O::fdot2
            | O::fdot3
            | O::fdot4
            | O::ffma
            | O::flrp
            | O::fmod
            | O::frsq
            | O::fexp2
            | O::flog2
            | O::fpow
            | O::fsin
            | O::fcos
    )
}

fn index(intr: &Intrinsic, kind: IndexKind) -> u32 {
    intr.op
        .info()
        .index_slot(kind)
        .and_then(|i| intr.indices.get(i))
        .copied()
        .unwrap_or(0)
}

/// The variable a deref chain starts from.
fn root_var(f: &FunctionImpl, mut d: rgl_nir::ir::Def) -> Option<VarId> {
    for _ in 0..256 {
        let InstrKind::Deref(deref) = &f.instrs[f.defs.get(d)?.instr].kind else {
            return None;
        };
        match &deref.kind {
            DerefKind::Var(v) => return Some(*v),
            DerefKind::Array { parent, .. }
            | DerefKind::ArrayWildcard { parent }
            | DerefKind::Struct { parent, .. }
            | DerefKind::Cast { parent, .. } => d = *parent,
        }
    }
    None
}

/// Output components `(io location, component)` whose value depends on an inexact
/// op (indirectly addressed outputs taint every slot of their range).
pub fn inexact_outputs(f: &FunctionImpl) -> BTreeSet<(i32, u8)> {
    outputs_depending_on(f, inexact)
}

/// Output components whose value depends on an `fpow`.
pub fn pow_outputs(f: &FunctionImpl) -> BTreeSet<(i32, u8)> {
    outputs_depending_on(f, |op| op == Opcode::fpow)
}

/// Output components whose value depends on an ALU op `pred` accepts.
fn outputs_depending_on(f: &FunctionImpl, pred: fn(Opcode) -> bool) -> BTreeSet<(i32, u8)> {
    let mut tainted = vec![false; f.defs.len()];
    let mut vars: BTreeSet<VarId> = BTreeSet::new();
    let mut outs = BTreeSet::new();
    let instrs: Vec<_> = f
        .blocks_in_order()
        .into_iter()
        .flat_map(|b| f.block_instrs(b))
        .collect();
    loop {
        let mut changed = false;
        for &i in &instrs {
            let data = &f.instrs[i];
            let mut src_tainted = false;
            data.for_each_src(|d| src_tainted |= tainted.get(d.index()).copied().unwrap_or(false));
            let own = match &data.kind {
                InstrKind::Alu(a) => pred(a.op),
                InstrKind::Intrinsic(intr) => match intr.op {
                    IntrinsicOp::load_deref => intr
                        .srcs
                        .first()
                        .and_then(|d| root_var(f, *d))
                        .is_some_and(|v| vars.contains(&v)),
                    IntrinsicOp::store_deref => {
                        let value = intr.srcs.get(1).is_some_and(|d| tainted[d.index()]);
                        if value {
                            if let Some(v) = intr.srcs.first().and_then(|d| root_var(f, *d)) {
                                changed |= vars.insert(v);
                            }
                        }
                        false
                    }
                    IntrinsicOp::store_output => {
                        let value = intr.srcs.first().is_some_and(|d| tainted[d.index()]);
                        if value {
                            let sem = index(intr, IndexKind::IoSemantics);
                            let loc = (sem & 0xffff) as i32;
                            let slots = (sem >> 16).max(1) as i32;
                            let comp = index(intr, IndexKind::Component);
                            let n = intr
                                .srcs
                                .first()
                                .map_or(4, |d| f.defs[*d].num_components as u32);
                            for s in 0..slots {
                                for c in comp..(comp + n).min(4) {
                                    changed |= outs.insert((loc + s, c as u8));
                                }
                            }
                        }
                        false
                    }
                    _ => false,
                },
                _ => false,
            };
            if own || src_tainted {
                for d in data.defs() {
                    if !tainted[d.index()] {
                        tainted[d.index()] = true;
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            return outs;
        }
    }
}

/// Whether two floats agree within the bound of the module doc (any NaN equals any
/// NaN; infinities must be equal).
pub fn within_bound(a: u32, b: u32) -> bool {
    if a == b {
        return true;
    }
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    if x.is_nan() || y.is_nan() {
        return x.is_nan() && y.is_nan();
    }
    if x.is_infinite() || y.is_infinite() {
        return x == y;
    }
    let (x, y) = (f64::from(x), f64::from(y));
    let diff = (x - y).abs();
    diff <= ABS_TOL || diff <= REL_TOL * x.abs().max(y.abs())
}

/// Whether `ours` is NaN where the reference has a number (the undefined domain of
/// `pow`; only meaningful for [`pow_outputs`]).
pub fn pow_domain_nan(ours: u32, reference: u32) -> bool {
    f32::from_bits(ours).is_nan() && !f32::from_bits(reference).is_nan()
}
