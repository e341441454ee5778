//! The rule table of `opt_algebraic` (data only; notation in `algebraic/mod.rs`).
//!
//! The rules are Mesa's `nir_opt_algebraic.py` rules for the code GLSL produces
//! (identities, distribution, ffma, lerp, clamp, selects and booleans,
//! comparisons, bit operations, exp/log/pow/rcp, fract), grouped by kind.
//!
//! Exactness (translation validation): a rule without `~` gives bit-identical results
//! under the opcode table's fold definitions for every input (ints wrap; `fmin`/`fmax`
//! ignore a NaN operand; NaN payloads aside), which `tests/algebraic_rules.rs` checks
//! with the interpreter. Rules with `~` are skipped on `exact` instructions and may
//! change results as stated next to them:
//! * sign of zero only (`nsz`): `fadd(a, 0.0)`, `ffma(a, b, 0.0)`, `fmin(fmax)` →
//!   `fsat`, `fabs(fsat(a))`;
//! * rounding (reassociation/distribution/contraction): at most 1 ULP of the largest
//!   intermediate magnitude per rewritten operation (`fadd(fmul(a,b), fmul(a,c))` →
//!   `fmul(a, fadd(b,c))`, constant reassociation, `ffma(#a, #b, c)` splitting, the
//!   `flrp` contraction, compares of a sum against 0); with cancellation the error
//!   relative to the final result is unbounded, so compare with a tolerance scaled by
//!   the operands' magnitudes;
//! * transcendental identities (`fpow(a, 2.0)`, `fpow(2.0, a)`, `fdiv(1, a)` → `frcp`,
//!   `frcp(fsqrt(a))` → `frsq`, `frcp(frsq(a))` → `fsqrt`): within the precision GLSL
//!   grants those built-ins (a few ULP).
//!
//! Rules that change NaN/Inf results (Mesa's `nnan`/`ninf` rules: `fmul(a, 0.0)` → 0,
//! `bcsel(flt)` → `fmin/fmax`, `inot(flt)` → `fge`, `fexp2(flog2(a))` → `a`, ...) live
//! in [`RULES_NNAN`], outside the default set.

/// Every rule of the main `opt_algebraic` set.
pub const RULES: &str = crate::rules! {
    // ---------------------------------------------------------------- canonical forms
    // Subtraction becomes addition of a negation (Mesa has no fsub/isub in NIR).
    (fsub a, b) => (fadd a, (fneg b));
    (isub a, b) => (iadd a, (ineg b));
    // Float/int to bool are compares against zero.
    (f2b1 a) => (fneu a, 0.0);
    (i2b1 a) => (ine a, 0);
    // Same-size conversions are moves.
    (f2f32 a@32) => a;
    (i2i32 a@32) => a;
    (u2u32 a@32) => a;
    (b2b1 (b2b32 a)) => a;
    (i2b1 (b2i32 a)) => a;

    // ---------------------------------------------------------------- identities
    (iadd a, 0) => a;
    (fadd a, -0.0) => a;
    (~fadd a, 0.0) => a;
    (imul a, 1) => a;
    (fmul a, 1.0) => a;
    (fmul a, -1.0) => (fneg a);
    (imul a, -1) => (ineg a);
    (imul a, 0) => 0;
    (fneg (fneg a)) => a;
    (ineg (ineg a)) => a;
    (fabs (fneg a)) => (fabs a);
    (fabs (fabs a)) => (fabs a);
    (fabs (u2f32 a)) => (u2f32 a);
    (fabs (b2f32 a)) => (b2f32 a);
    (~fabs (fsat a)) => (fsat a);
    (iabs (iabs a)) => (iabs a);
    (iabs (ineg a)) => (iabs a);
    (fadd a, a) => (fmul a, 2.0);
    (fdiv a, 1.0) => a;
    (idiv a, 1) => a;
    (udiv a, 1) => a;
    (idiv a, -1) => (ineg a);
    (imod a, 1) => 0;
    (irem a, 1) => 0;
    (umod a, 1) => 0;
    (fmul (fneg:once a), b) => (fneg (fmul a, b));
    (fmul (fabs a), (fabs a)) => (fmul a, a);
    (ineg (iadd:once a, (ineg b))) => (iadd b, (ineg a));

    // ---------------------------------------------------------------- distribution, cancellation
    (~fadd (fmul a, b), (fmul a, c)) => (fmul a, (fadd b, c));
    (iadd (imul a, b), (imul a, c)) => (imul a, (iadd b, c));
    (iadd (ineg a), a) => 0;
    (iadd a, (iadd (ineg a), b)) => b;
    // Constant reassociation (exact for integers).
    (iadd (iadd:once a, #b), #c) => (iadd a, (iadd b, c));
    (imul (imul:once a, #b), #c) => (imul a, (imul b, c));
    (iand (iand:once a, #b), #c) => (iand a, (iand b, c));
    (ior (ior:once a, #b), #c) => (ior a, (ior b, c));
    (ixor (ixor:once a, #b), #c) => (ixor a, (ixor b, c));
    (~fadd (fadd:once a, #b), #c) => (fadd a, (fadd b, c));
    (~fmul (fmul:once a, #b), #c) => (fmul a, (fmul b, c));
    (ieq (iadd a, #b), #c) => (ieq a, (iadd c, (ineg b)));
    (ine (iadd a, #b), #c) => (ine a, (iadd c, (ineg b)));

    // ---------------------------------------------------------------- ffma
    (ffma 1.0, a, b) => (fadd a, b);
    (ffma -1.0, a, b) => (fadd (fneg a), b);
    (ffma a, b, -0.0) => (fmul a, b);
    (~ffma a, b, 0.0) => (fmul a, b);
    (~ffma #a, #b, c) => (fadd (fmul a, b), c);

    // ---------------------------------------------------------------- lerp
    (~fadd (fmul a, (fadd 1.0, (fneg c))), (fmul b, c)) => (flrp a, b, c);

    // ---------------------------------------------------------------- clamp, min/max
    (~fmin (fmax a, 0.0), 1.0) => (fsat a);
    (~fmax (fmin a, 1.0), 0.0) => (fsat a);
    (fsat (fsat a)) => (fsat a);
    (fsat (b2f32 a)) => (b2f32 a);
    (fmin a, a) => a;
    (fmax a, a) => a;
    (imin a, a) => a;
    (imax a, a) => a;
    (umin a, a) => a;
    (umax a, a) => a;
    (fmax (fmax a, b), b) => (fmax a, b);
    (fmin (fmin a, b), b) => (fmin a, b);
    (imax (imax a, b), b) => (imax a, b);
    (imin (imin a, b), b) => (imin a, b);
    (umax (umax a, b), b) => (umax a, b);
    (umin (umin a, b), b) => (umin a, b);
    (umin a, 0) => 0;
    (umax a, 0) => a;

    // ---------------------------------------------------------------- select, booleans
    (bcsel true, b, c) => b;
    (bcsel false, b, c) => c;
    (bcsel a, b, b) => b;
    (bcsel (inot a), b, c) => (bcsel a, c, b);
    (bcsel a, true, b@1) => (ior a, b);
    (bcsel a, b@1, false) => (iand a, b);
    (bcsel a, a, b@1) => (ior a, b);
    (bcsel a, b@1, a) => (iand a, b);
    (bcsel a, true, false) => a;
    (bcsel a, false, true) => (inot a);
    (bcsel a, (bcsel a, b, c), d) => (bcsel a, b, d);
    (bcsel a, b, (bcsel a, c, d)) => (bcsel a, b, d);
    (bcsel a, 1.0, 0.0) => (b2f32 a);
    (bcsel a, 0.0, 1.0) => (b2f32 (inot a));
    (bcsel a, 1, 0) => (b2i32 a);
    (bcsel a, 0, 1) => (b2i32 (inot a));
    (bcsel (ilt a, b), a, b) => (imin a, b);
    (bcsel (ilt a, b), b, a) => (imax a, b);
    (bcsel (ige a, b), a, b) => (imax a, b);
    (bcsel (ige a, b), b, a) => (imin a, b);
    (bcsel (ult a, b), a, b) => (umin a, b);
    (bcsel (ult a, b), b, a) => (umax a, b);
    (bcsel (uge a, b), a, b) => (umax a, b);
    (bcsel (uge a, b), b, a) => (umin a, b);
    (ieq a@1, false) => (inot a);
    (ine a@1, false) => a;
    (ieq a@1, true) => a;
    (ine a@1, true) => (inot a);
    (fge 0.0, (b2f32 a)) => (inot a);
    (flt 0.0, (b2f32 a)) => a;
    (fneu (b2f32 a), 0.0) => a;
    (feq (b2f32 a), 0.0) => (inot a);
    (ine (b2i32 a), 0) => a;
    (ieq (b2i32 a), 0) => (inot a);
    (fmax (b2f32 a), (b2f32 b)) => (b2f32 (ior a, b));
    (fmin (b2f32 a), (b2f32 b)) => (b2f32 (iand a, b));
    (fmul (b2f32 a), (b2f32 b)) => (b2f32 (iand a, b));
    (iand (b2i32 a), (b2i32 b)) => (b2i32 (iand a, b));
    (ior (b2i32 a), (b2i32 b)) => (b2i32 (ior a, b));
    (ineg (b2i32 a)) => (bcsel a, -1, 0);
    // Compares of a once-used select between constants and a constant.
    (flt (bcsel:once a, #b, #c), #d) => (bcsel a, (flt b, d), (flt c, d));
    (flt #d, (bcsel:once a, #b, #c)) => (bcsel a, (flt d, b), (flt d, c));
    (fge (bcsel:once a, #b, #c), #d) => (bcsel a, (fge b, d), (fge c, d));
    (fge #d, (bcsel:once a, #b, #c)) => (bcsel a, (fge d, b), (fge d, c));
    (feq (bcsel:once a, #b, #c), #d) => (bcsel a, (feq b, d), (feq c, d));
    (fneu (bcsel:once a, #b, #c), #d) => (bcsel a, (fneu b, d), (fneu c, d));
    (ilt (bcsel:once a, #b, #c), #d) => (bcsel a, (ilt b, d), (ilt c, d));
    (ilt #d, (bcsel:once a, #b, #c)) => (bcsel a, (ilt d, b), (ilt d, c));
    (ige (bcsel:once a, #b, #c), #d) => (bcsel a, (ige b, d), (ige c, d));
    (ige #d, (bcsel:once a, #b, #c)) => (bcsel a, (ige d, b), (ige d, c));
    (ieq (bcsel:once a, #b, #c), #d) => (bcsel a, (ieq b, d), (ieq c, d));
    (ine (bcsel:once a, #b, #c), #d) => (bcsel a, (ine b, d), (ine c, d));
    (ult (bcsel:once a, #b, #c), #d) => (bcsel a, (ult b, d), (ult c, d));
    (ult #d, (bcsel:once a, #b, #c)) => (bcsel a, (ult d, b), (ult d, c));
    (uge (bcsel:once a, #b, #c), #d) => (bcsel a, (uge b, d), (uge c, d));
    (uge #d, (bcsel:once a, #b, #c)) => (bcsel a, (uge d, b), (uge d, c));

    // ---------------------------------------------------------------- comparisons
    (~flt (fadd:once a, b), 0.0) => (flt a, (fneg b));
    (~flt 0.0, (fadd:once a, b)) => (flt (fneg b), a);
    (~fge (fadd:once a, b), 0.0) => (fge a, (fneg b));
    (~fge 0.0, (fadd:once a, b)) => (fge (fneg b), a);
    (~feq (fadd:once a, b), 0.0) => (feq a, (fneg b));
    (~fneu (fadd:once a, b), 0.0) => (fneu a, (fneg b));
    (flt (fneg a), (fneg b)) => (flt b, a);
    (fge (fneg a), (fneg b)) => (fge b, a);
    (feq (fneg a), (fneg b)) => (feq a, b);
    (fneu (fneg a), (fneg b)) => (fneu a, b);
    (feq (i2f32 a), 0.0) => (ieq a, 0);
    (fneu (i2f32 a), 0.0) => (ine a, 0);
    (flt (i2f32 a), 0.0) => (ilt a, 0);
    (fge (i2f32 a), 0.0) => (ige a, 0);
    (flt 0.0, (i2f32 a)) => (ilt 0, a);
    (fge 0.0, (i2f32 a)) => (ige 0, a);
    (feq (u2f32 a), 0.0) => (ieq a, 0);
    (fneu (u2f32 a), 0.0) => (ine a, 0);
    (fge (u2f32 a), 0.0) => true;
    (flt (u2f32 a), 0.0) => false;
    (fge (fneg (fabs a)), 0.0) => (feq a, 0.0);
    (fge 0.0, (fabs a)) => (feq a, 0.0);
    (flt (fabs a), 0.0) => false;
    (flt a, a) => false;
    (ilt a, a) => false;
    (ige a, a) => true;
    (ieq a, a) => true;
    (ine a, a) => false;
    (ult a, a) => false;
    (uge a, a) => true;
    (ult a, 0) => false;
    (uge a, 0) => true;
    (ior (flt:once a, b), (flt:once a, c)) => (flt a, (fmax b, c));
    (ior (flt:once a, c), (flt:once b, c)) => (flt (fmin a, b), c);
    (ior (fge:once a, b), (fge:once a, c)) => (fge a, (fmin b, c));
    (ior (fge:once a, c), (fge:once b, c)) => (fge (fmax a, b), c);
    (inot (feq:once a, b)) => (fneu a, b);
    (inot (fneu:once a, b)) => (feq a, b);
    (inot (ilt:once a, b)) => (ige a, b);
    (inot (ige:once a, b)) => (ilt a, b);
    (inot (ieq:once a, b)) => (ine a, b);
    (inot (ine:once a, b)) => (ieq a, b);
    (inot (ult:once a, b)) => (uge a, b);
    (inot (uge:once a, b)) => (ult a, b);

    // ---------------------------------------------------------------- bit operations
    (iand a, a) => a;
    (ior a, a) => a;
    (iand a, 0) => 0;
    (iand a, -1) => a;
    (ior a, 0) => a;
    (ior a, -1) => -1;
    (ixor a, a) => 0;
    (ixor a, 0) => a;
    (ixor a, -1) => (inot a);
    (iand a, (inot a)) => 0;
    (ior a, (inot a)) => -1;
    (inot (inot a)) => a;
    (iand a, (ior a, b)) => a;
    (ior a, (iand a, b)) => a;
    (iand (inot a), (inot b)) => (inot (ior a, b));
    (ior (inot a), (inot b)) => (inot (iand a, b));
    (ishl a, 0) => a;
    (ishl 0, a) => 0;
    (ushr a, 0) => a;
    (ushr 0, a) => 0;
    (ishr a, 0) => a;
    (ishr 0, a) => 0;
    (ishr -1, a) => -1;
    (imul a, #b:is_pos_power_of_two) => (ishl a, (find_lsb b));
    (imul a, #b:is_neg_power_of_two) => (ineg (ishl a, (find_lsb (iabs b))));
    (udiv a, #b:is_pos_power_of_two) => (ushr a, (find_lsb b));
    (umod a, #b:is_pos_power_of_two) => (iand a, (iadd b, -1));

    // ---------------------------------------------------------------- exp/log/pow/rcp
    (~fpow a, 1.0) => a;
    (~fpow a, 2.0) => (fmul a, a);
    (~fpow 2.0, a) => (fexp2 a);
    (~fdiv 1.0, a) => (frcp a);
    (~frcp (fsqrt a)) => (frsq a);
    (~frcp (frsq a)) => (fsqrt a);

    // ---------------------------------------------------------------- fract
    (fadd a, (fneg:once (ffloor:once a))) => (ffract a);
};

/// Rules that are only valid when no operand is NaN or infinite (Mesa applies them as
/// inexact `~` rules). They are kept out of the default set: NaN/Inf inputs turn up
/// in real shaders (`acos` of a value above 1, `sqrt` of a negative) and these rules
/// change such results beyond any ULP bound (NaN ↔ number, `fmin`/`fmax` ignoring a
/// NaN, `inf * 0`), which translation validation reports. A driver option enabling
/// "fast math" can load them with [`super::RuleSet::with_nnan`].
pub const RULES_NNAN: &str = crate::rules! {
    (~fmul a, 0.0) => 0.0;
    (~fadd (fneg a), a) => 0.0;
    (~fadd a, (fadd (fneg a), b)) => b;
    (~ffma 0.0, a, b) => b;
    (~flrp a, b, 0.0) => a;
    (~flrp a, b, 1.0) => b;
    (~flrp a, a, b) => a;
    (~flrp a, b, (b2f32 c)) => (bcsel c, b, a);
    (~bcsel (flt b, a), b, a) => (fmin a, b);
    (~bcsel (flt a, b), b, a) => (fmax a, b);
    (~bcsel (fge a, b), a, b) => (fmax a, b);
    (~bcsel (fge a, b), b, a) => (fmin a, b);
    (~flt 0.0, (fabs a)) => (fneu a, 0.0);
    (iand (~flt:once a, b), (~flt:once a, c)) => (flt a, (fmin b, c));
    (iand (~flt:once a, c), (~flt:once b, c)) => (flt (fmax a, b), c);
    (iand (~fge:once a, b), (~fge:once a, c)) => (fge a, (fmax b, c));
    (iand (~fge:once a, c), (~fge:once b, c)) => (fge (fmin a, b), c);
    (inot (~flt:once a, b)) => (fge a, b);
    (inot (~fge:once a, b)) => (flt a, b);
    (~fexp2 (flog2 a)) => a;
    (~flog2 (fexp2 a)) => a;
    (~fexp2 (fmul (flog2 a), b)) => (fpow a, b);
    (~frcp (frcp a)) => a;
    (~fmul (fsqrt a), (fsqrt a)) => a;
};
