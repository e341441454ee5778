//! Operators that expand into several ALU instructions, as Mesa's NIR builder helpers
//! do: `atan` (range reduction + odd polynomial, `nir_atan`), `atan2` (`nir_atan2`,
//! with the half-plane flip and the large-denominator scaling), and dynamic vector
//! indexing (`nir_vector_extract` / `nir_vector_insert` as `bcsel` chains).
//!
//! Also the built-in function calls the front end keeps as calls
//! (`rgl_glsl::builtins::keeps_call`) that map onto ALU opcodes: the GLSL 4.00
//! §8.8 integer functions and §8.3 `frexp`/`ldexp`, translated as Mesa's
//! `glsl_to_nir.cpp` translates the `ir_expression`s its `builtin_functions.cpp`
//! gives them (`bit_count`, `ubitfield_extract`, `imul_high`, `uadd_carry`,
//! `frexp_sig`, ...). [`Conv::builtin_call`] is the one entry point for calls of
//! built-in signatures; names it does not know are reported unsupported.

use rgl_glsl::arena::Handle;
use rgl_glsl::hir;
use rgl_glsl::types::ScalarKind;
use rgl_nir::ir::Def;
use rgl_nir::opcodes::Opcode as O;

use rgl_nir::intrinsics::{IntrinsicOp, Scope};

use super::{invalid, unsupported, Conv, Res};

/// The intrinsic of an ARB_shader_group_vote function.
fn vote_op(name: &str) -> Option<IntrinsicOp> {
    Some(match name {
        "anyInvocationARB" => IntrinsicOp::vote_any,
        "allInvocationsARB" => IntrinsicOp::vote_all,
        // On `bool` operands the integer comparison (Mesa's `vote_ieq`).
        "allInvocationsEqualARB" => IntrinsicOp::vote_ieq,
        _ => return None,
    })
}

/// Coefficients of the odd polynomial approximating atan on [0, 1] (x, x³, …, x¹¹).
const ATAN_COEFFS: [f32; 6] = [
    0.999_979_3,
    -0.332_675_65,
    0.193_892_5,
    -0.117_350_32,
    0.053_681_38,
    -0.012_132_321,
];

impl Conv<'_> {
    /// `atan(y_over_x)`.
    pub(crate) fn atan(&mut self, y_over_x: Def) -> Def {
        let n = self.comps(y_over_x);
        let abs = self.alu(O::fabs, &[y_over_x], n);
        let one = self.imm_f(1.0);
        // x = min(|a|, 1) / max(|a|, 1): the argument reduced to [0, 1].
        let lo = self.alu(O::fmin, &[abs, one], n);
        let hi = self.alu(O::fmax, &[abs, one], n);
        let x = self.alu(O::fdiv, &[lo, hi], n);
        let x2 = self.alu(O::fmul, &[x, x], n);
        // Horner on x²: ((((c5·x² + c4)·x² + c3)·x² + c2)·x² + c1)·x² + c0, times x.
        let c5 = self.imm_f(ATAN_COEFFS[5]);
        let mut p = self.alu(O::fmul, &[x2, c5], n);
        for c in ATAN_COEFFS[..5].iter().rev() {
            let k = self.imm_f(*c);
            p = self.alu(O::ffma, &[x2, p, k], n);
        }
        let tmp = self.alu(O::fmul, &[p, x], n);
        // |a| > 1: atan(a) = π/2 − atan(1/a), i.e. tmp + b2f(1 < |a|)·(π/2 − 2·tmp).
        let gt = self.alu(O::flt, &[one, abs], n);
        let sel = self.alu(O::b2f32, &[gt], n);
        let m2 = self.imm_f(-2.0);
        let half_pi = self.imm_f(std::f32::consts::FRAC_PI_2);
        let fix = self.alu(O::ffma, &[tmp, m2, half_pi], n);
        let reduced = self.alu(O::ffma, &[sel, fix, tmp], n);
        let sign = self.alu(O::fsign, &[y_over_x], n);
        self.alu(O::fmul, &[reduced, sign], n)
    }

    /// `atan(y, x)`.
    pub(crate) fn atan2(&mut self, y: Def, x: Def) -> Def {
        let n = self.comps(y).max(self.comps(x));
        let zero = self.imm_f(0.0);
        let one = self.imm_f(1.0);
        // Left half-plane: rotate by π/2 so the discontinuity lies along t = 0.
        let flip = self.alu(O::fge, &[zero, x], n);
        let abs_x = self.alu(O::fabs, &[x], n);
        let s = self.alu(O::bcsel, &[flip, abs_x, y], n);
        let t = self.alu(O::bcsel, &[flip, y, abs_x], n);
        // Scale huge denominators down so the reciprocal does not flush to zero.
        let abs_t = self.alu(O::fabs, &[t], n);
        let huge = self.imm_f(1e18);
        let is_huge = self.alu(O::fge, &[abs_t, huge], n);
        let quarter = self.imm_f(0.25);
        let scale = self.alu(O::bcsel, &[is_huge, quarter, one], n);
        let t_scaled = self.alu(O::fmul, &[t, scale], n);
        let rcp = self.alu(O::frcp, &[t_scaled], n);
        let s_scaled = self.alu(O::fmul, &[s, scale], n);
        let abs_s = self.alu(O::fabs, &[s_scaled], n);
        let abs_rcp = self.alu(O::fabs, &[rcp], n);
        let ratio = self.alu(O::fmul, &[abs_s, abs_rcp], n);
        // |x| == |y| counts as tan = 1 (IEEE's ±π/4, ±3π/4 at infinities).
        let abs_y = self.alu(O::fabs, &[y], n);
        let same = self.alu(O::feq, &[abs_x, abs_y], n);
        let tan = self.alu(O::bcsel, &[same, one, ratio], n);
        let at = self.atan(tan);
        let flip_f = self.alu(O::b2f32, &[flip], n);
        let half_pi = self.imm_f(std::f32::consts::FRAC_PI_2);
        let arc = self.alu(O::ffma, &[flip_f, half_pi, at], n);
        // Sign: negative when min(y, 1/t') < 0 (keeps the sign of -0.0 for x < 0).
        let m = self.alu(O::fmin, &[y, rcp], n);
        let neg = self.alu(O::flt, &[m, zero], n);
        let neg_arc = self.alu(O::fneg, &[arc], n);
        self.alu(O::bcsel, &[neg, neg_arc, arc], n)
    }

    /// Component `index` (a dynamic scalar) of vector `v`: a `bcsel` chain.
    pub(crate) fn vector_extract(&mut self, v: Def, index: Def) -> Res<Def> {
        Ok(self.b().vector_extract(v, index))
    }

    /// `v` with component `index` (a dynamic scalar) replaced by scalar `s`.
    pub(crate) fn vector_insert(&mut self, v: Def, s: Def, index: Def) -> Res<Def> {
        Ok(self.b().vector_insert(v, s, index, 0))
    }

    /// `anyInvocationARB(value)` and the other ARB_shader_group_vote
    /// functions: one vote intrinsic on the boolean operand, its boolean
    /// result assigned to `return_deref`.
    fn vote_call(
        &mut self,
        name: &str,
        op: IntrinsicOp,
        return_deref: Option<Handle<hir::Expr>>,
        args: &[Handle<hir::Expr>],
    ) -> Res<()> {
        let [value] = args else {
            return invalid(format!("call of `{name}` with the wrong argument count"));
        };
        let v = self.eval(*value)?;
        let n = self.comps(v);
        let Some(vote) = self.b().intrinsic(op, vec![v], n, Vec::new(), Some((1, 1))) else {
            return invalid(format!("`{name}` without a result"));
        };
        if let Some(r) = return_deref {
            self.assign_value(r, vote, 1)?;
        }
        Ok(())
    }

    /// A call of built-in function `name` whose signature has no GLSL IR
    /// expansion: evaluates the `in` arguments left to right, computes the
    /// result and the `out` arguments (GLSL 4.00 §6.1.1: written back after the
    /// call), and assigns them to `return_deref` and the `out` lvalues.
    pub(crate) fn builtin_call(
        &mut self,
        name: &str,
        return_deref: Option<Handle<hir::Expr>>,
        args: &[Handle<hir::Expr>],
    ) -> Res<()> {
        if let Some(op) = vote_op(name) {
            return self.vote_call(name, op, return_deref, args);
        }
        if name == "clock2x32ARB" {
            if !args.is_empty() {
                return invalid(format!("`{name}` with arguments"));
            }
            // ARB_shader_clock: Mesa's `nir_intrinsic_shader_clock` with
            // subgroup scope.
            let Some(clock) = self.b().intrinsic(
                IntrinsicOp::shader_clock,
                vec![],
                2,
                vec![Scope::Subgroup.code()],
                Some((2, 32)),
            ) else {
                return invalid("shader_clock without a result");
            };
            if let Some(r) = return_deref {
                self.assign_value(r, clock, 0b11)?;
            }
            return Ok(());
        }
        let arity = match name {
            "bitCount" | "findLSB" | "findMSB" | "bitfieldReverse" => 1,
            "ldexp" | "frexp" => 2,
            "uaddCarry" | "usubBorrow" | "bitfieldExtract" => 3,
            "umulExtended" | "imulExtended" | "bitfieldInsert" => 4,
            _ => return unsupported(format!("call of built-in function `{name}`")),
        };
        if args.len() != arity {
            return invalid(format!("call of `{name}` with the wrong argument count"));
        }
        let ins = match name {
            "frexp" | "bitCount" | "findLSB" | "findMSB" | "bitfieldReverse" => 1,
            "uaddCarry" | "usubBorrow" | "umulExtended" | "imulExtended" | "ldexp" => 2,
            _ => arity,
        };
        let kind = self.expr(args[0])?.ty.scalar_kind();
        let mut v = Vec::with_capacity(ins);
        for a in &args[..ins] {
            v.push(self.eval(*a)?);
        }
        let n = self.comps(v[0]);
        // (result, out values in argument order after the inputs)
        let (result, outs): (Option<Def>, Vec<Def>) = match name {
            "bitCount" => (Some(self.alu(O::bit_count, &[v[0]], n)), vec![]),
            "findLSB" => (Some(self.alu(O::find_lsb, &[v[0]], n)), vec![]),
            "findMSB" => {
                let op = if kind == Some(ScalarKind::Int) {
                    O::ifind_msb
                } else {
                    O::ufind_msb
                };
                (Some(self.alu(op, &[v[0]], n)), vec![])
            }
            "bitfieldReverse" => (Some(self.alu(O::bitfield_reverse, &[v[0]], n)), vec![]),
            "bitfieldExtract" => {
                let op = if kind == Some(ScalarKind::Int) {
                    O::ibitfield_extract
                } else {
                    O::ubitfield_extract
                };
                let (offset, bits) = (self.splat(v[1], n), self.splat(v[2], n));
                (Some(self.alu(op, &[v[0], offset, bits], n)), vec![])
            }
            "bitfieldInsert" => {
                let (offset, bits) = (self.splat(v[2], n), self.splat(v[3], n));
                let r = self.alu(O::bitfield_insert, &[v[0], v[1], offset, bits], n);
                (Some(r), vec![])
            }
            "ldexp" => (Some(self.alu(O::ldexp, &[v[0], v[1]], n)), vec![]),
            "frexp" => {
                let sig = self.alu(O::frexp_sig, &[v[0]], n);
                let exp = self.alu(O::frexp_exp, &[v[0]], n);
                (Some(sig), vec![exp])
            }
            "uaddCarry" => {
                let sum = self.alu(O::iadd, &[v[0], v[1]], n);
                let carry = self.alu(O::uadd_carry, &[v[0], v[1]], n);
                (Some(sum), vec![carry])
            }
            "usubBorrow" => {
                let diff = self.alu(O::isub, &[v[0], v[1]], n);
                let borrow = self.alu(O::usub_borrow, &[v[0], v[1]], n);
                (Some(diff), vec![borrow])
            }
            _ => {
                // umulExtended / imulExtended: out msb, out lsb.
                let high = if kind == Some(ScalarKind::Int) {
                    O::imul_high
                } else {
                    O::umul_high
                };
                let msb = self.alu(high, &[v[0], v[1]], n);
                let lsb = self.alu(O::imul, &[v[0], v[1]], n);
                (None, vec![msb, lsb])
            }
        };
        let mask = ((1u16 << n) - 1) as u8;
        for (lhs, value) in args[ins..].iter().zip(outs) {
            self.assign_value(*lhs, value, mask)?;
        }
        if let (Some(r), Some(value)) = (return_deref, result) {
            self.assign_value(r, value, mask)?;
        }
        Ok(())
    }
}
