//! `opt_algebraic`: pattern rewriting with the rule table of `algebraic/rules.rs`
//! (Mesa's `nir_opt_algebraic`).
//!
//! For every ALU instruction, only the rules whose search root is its opcode are tried
//! (the rule set is indexed by root opcode). Matching composes swizzles component-wise
//! through the matched tree, tries both source orders of commutative ops (every
//! combination of orders, at most 2^k for k commutative ops in a pattern), and checks
//! exactness (`~` ops never match `exact` instructions), bit sizes, constants,
//! predicates and single use. The replacement is built before the matched root (new
//! instructions inherit the root's `exact` flag), the root's uses are rewritten and the
//! root removed; the rest of the matched tree is left to `opt_dce`. New instructions
//! are revisited at once, with a rewrite budget per function so a rule chain can never
//! loop forever.
//!
//! `opt_algebraic_exact` runs only the rules that are bit-exact under the opcode table's
//! fold definitions (for translation validation and `precise` code).

use super::algebraic::{Lit, Pat, Pred, Rule, RuleSet};
use super::{for_each_impl, Pass, PassFailure};
use crate::builder::{Builder, Cursor};
use crate::ir::*;
use crate::opcodes::{encode, mask, sign_extend, Base, Opcode, Val};
use smallvec::SmallVec;

/// The pass (all rules).
pub struct OptAlgebraic;

/// The pass restricted to exact rules.
pub struct OptAlgebraicExact;

impl Pass for OptAlgebraic {
    fn name(&self) -> &'static str {
        "opt_algebraic"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        let set = RuleSet::get();
        Ok(for_each_impl(shader, |f| algebraic_impl(f, set, false)))
    }
}

impl Pass for OptAlgebraicExact {
    fn name(&self) -> &'static str {
        "opt_algebraic_exact"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        let set = RuleSet::get();
        Ok(for_each_impl(shader, |f| algebraic_impl(f, set, true)))
    }
}

/// Use lists kept up to date while rewriting (instruction uses and if conditions).
/// They are built on first need (a single-use check or a rewrite): most runs of the
/// pass in the optimisation loop rewrite nothing, and most rules never ask for a
/// use count (Mesa's `nir_opt_algebraic` likewise reads the SSA use lists only for
/// `is_used_once`).
struct UseInfo {
    uses: Option<Uses>,
}

impl UseInfo {
    /// The use lists, built from `func` when this is the first need.
    fn get(&mut self, func: &FunctionImpl) -> &mut Uses {
        self.uses.get_or_insert_with(|| func.build_uses())
    }
}

/// Components read from a value, one per component of the matched root (at most
/// 16); unused entries stay 0 so equal selections compare equal.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Comps {
    len: u8,
    c: [u8; 16],
}

impl Comps {
    /// Components `0..n`.
    fn identity(n: u8) -> Comps {
        let len = n.min(16);
        let mut c = [0u8; 16];
        for (i, slot) in c.iter_mut().enumerate().take(usize::from(len)) {
            *slot = i as u8;
        }
        Comps { len, c }
    }
    fn as_slice(&self) -> &[u8] {
        &self.c[..usize::from(self.len)]
    }
    /// The components of the value `swizzle` reads that these components select.
    fn through(&self, swizzle: &[u8; 16]) -> Comps {
        let mut c = [0u8; 16];
        for (slot, &k) in c.iter_mut().zip(self.as_slice()) {
            *slot = swizzle[usize::from(k)];
        }
        Comps { len: self.len, c }
    }
}

/// A bound variable: a value and the components read from it (one per component of
/// the matched root).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Binding {
    def: Def,
    comps: Comps,
}

/// The bindings of a rule's variables during one match.
type Vars = SmallVec<[Option<Binding>; 4]>;

struct Matcher<'a> {
    func: &'a FunctionImpl,
    info: &'a mut UseInfo,
    vars: Vars,
    /// Source order choice per commutative op, in pre-order (bit i = swap op i).
    swap_mask: u32,
    next_commutative: u32,
}

fn float_of(bits: u8, raw: u64) -> Option<f64> {
    Some(match bits {
        16 => f64::from(half::f16::from_bits(raw as u16).to_f32()),
        32 => f64::from(f32::from_bits(raw as u32)),
        64 => f64::from_bits(raw),
        _ => return None,
    })
}

/// Raw bits of `lit` at `bits` for a source of base type `base`.
fn lit_bits(lit: Lit, bits: u8) -> Option<u64> {
    match lit {
        Lit::Int(v) => Some((v as u64) & mask(bits)),
        Lit::Float(v) => encode(Val::F(v), bits),
        Lit::Bool(b) => encode(Val::B(b), bits),
    }
}

fn lit_matches(lit: Lit, bits: u8, raw: u64) -> bool {
    match lit {
        // Floats compare bit-exactly in f64 (so 0.0 and -0.0 differ).
        Lit::Float(v) => float_of(bits, raw).is_some_and(|x| x.to_bits() == v.to_bits()),
        _ => lit_bits(lit, bits) == Some(raw & mask(bits)),
    }
}

fn is_pow2(v: i64) -> bool {
    v > 0 && (v & (v - 1)) == 0
}

impl Matcher<'_> {
    fn const_comps(&self, def: Def, comps: &Comps) -> Option<SmallVec<[u64; 4]>> {
        let values = self.func.const_value(def)?;
        comps
            .as_slice()
            .iter()
            .map(|c| values.get(usize::from(*c)).copied())
            .collect()
    }

    fn pred_holds(&self, pred: Pred, def: Def, comps: &Comps) -> bool {
        let bits = self.func.defs[def].bit_size;
        let consts = self.const_comps(def, comps);
        match pred {
            Pred::IsNotConst => consts.is_none(),
            Pred::IsPosPowerOfTwo => {
                consts.is_some_and(|v| v.iter().all(|x| is_pow2(sign_extend(*x, bits))))
            }
            Pred::IsNegPowerOfTwo => consts.is_some_and(|v| {
                v.iter().all(|x| {
                    let s = sign_extend(*x, bits);
                    s < 0 && (s == sign_extend(1u64 << (bits - 1).min(63), bits) || is_pow2(-s))
                })
            }),
            Pred::IsZeroToOne => consts.is_some_and(|v| {
                v.iter()
                    .all(|x| float_of(bits, *x).is_some_and(|f| (0.0..=1.0).contains(&f)))
            }),
            Pred::IsNotZero => consts.is_some_and(|v| v.iter().all(|x| x & mask(bits) != 0)),
            Pred::IsFinite => consts.is_some_and(|v| {
                v.iter()
                    .all(|x| float_of(bits, *x).is_some_and(|f| f.is_finite()))
            }),
            Pred::IsNotNegative => match consts {
                Some(v) => v
                    .iter()
                    .all(|x| float_of(bits, *x).is_some_and(|f| f >= 0.0)),
                None => matches!(
                    &self.func.instrs[self.func.defs[def].instr].kind,
                    InstrKind::Alu(Alu {
                        op: Opcode::fabs
                            | Opcode::fsat
                            | Opcode::b2f32
                            | Opcode::u2f32
                            | Opcode::fexp2
                            | Opcode::fsqrt,
                        ..
                    })
                ),
            },
        }
    }

    fn match_value(&mut self, pat: &Pat, def: Def, comps: &Comps) -> bool {
        let bits = self.func.defs[def].bit_size;
        match pat {
            Pat::Var {
                index,
                is_const,
                bits: want_bits,
                preds,
            } => {
                if want_bits.is_some_and(|b| b != bits) {
                    return false;
                }
                if *is_const && self.func.const_value(def).is_none() {
                    return false;
                }
                if !preds.iter().all(|p| self.pred_holds(*p, def, comps)) {
                    return false;
                }
                let binding = Binding { def, comps: *comps };
                match self.vars.get_mut(usize::from(*index)) {
                    Some(slot @ None) => {
                        *slot = Some(binding);
                        true
                    }
                    Some(Some(b)) => *b == binding,
                    None => false,
                }
            }
            Pat::Lit(lit) => match self.const_comps(def, comps) {
                Some(values) => values.iter().all(|v| lit_matches(*lit, bits, *v)),
                None => false,
            },
            Pat::Op {
                op,
                inexact,
                bits: want_bits,
                once,
                srcs,
            } => {
                let InstrKind::Alu(alu) = &self.func.instrs[self.func.defs[def].instr].kind else {
                    return false;
                };
                if alu.op != *op || (*inexact && alu.exact) || alu.srcs.len() != srcs.len() {
                    return false;
                }
                if want_bits.is_some_and(|b| b != bits)
                    || (*once && self.info.get(self.func)[def].len() != 1)
                {
                    return false;
                }
                // With the op's bit of the mask set, the first two sources are
                // matched in swapped order.
                let mut swap = false;
                if op.info().is_commutative() {
                    let bit = self.next_commutative;
                    self.next_commutative += 1;
                    swap = self.swap_mask & (1 << bit) != 0;
                }
                for (k, pat_src) in srcs.iter().enumerate() {
                    let i = if swap && k < 2 { 1 - k } else { k };
                    let src = alu.srcs[i];
                    let inner = comps.through(&src.swizzle);
                    if !self.match_value(pat_src, src.def, &inner) {
                        return false;
                    }
                }
                true
            }
        }
    }
}

/// A necessary condition for `search` to match at `def`, checked before the matcher
/// runs: the sources of the root, in one of the orders the matcher tries, have the
/// opcodes the pattern names and are constants where it wants literals or constant
/// variables. Most rules tried on an instruction fail here.
fn first_level_fits(func: &FunctionImpl, search: &Pat, def: Def) -> bool {
    let Pat::Op { op, srcs: pats, .. } = search else {
        return true;
    };
    let InstrKind::Alu(alu) = &func.instrs[func.defs[def].instr].kind else {
        return false;
    };
    if alu.srcs.len() != pats.len() {
        return false;
    }
    let fits = |pat: &Pat, d: Def| match pat {
        Pat::Op { op, .. } => matches!(
            &func.instrs[func.defs[d].instr].kind,
            InstrKind::Alu(a) if a.op == *op
        ),
        Pat::Lit(_) | Pat::Var { is_const: true, .. } => func.const_value(d).is_some(),
        Pat::Var { .. } => true,
    };
    let pairs = || pats.iter().zip(alu.srcs.iter());
    if !pairs().skip(2).all(|(p, s)| fits(p, s.def)) {
        return false;
    }
    if pairs().take(2).all(|(p, s)| fits(p, s.def)) {
        return true;
    }
    op.info().is_commutative()
        && pats.len() >= 2
        && fits(&pats[0], alu.srcs[1].def)
        && fits(&pats[1], alu.srcs[0].def)
}

/// Tries `rule` on the root value `def`; returns the bindings on success.
///
/// The source orders of the commutative ops are tried as the masks `0..2^k` in
/// increasing order. A match decides its course only from the mask bits it has
/// consumed (one per commutative op reached, in pre-order), so when it fails after
/// consuming the low `n` bits, every later mask with the same low `n` bits fails the
/// same way and is skipped; a failure before any commutative op ends the search.
/// The first mask that matches is the one the plain enumeration finds.
fn match_rule(func: &FunctionImpl, info: &mut UseInfo, rule: &Rule, def: Def) -> Option<Vars> {
    if !first_level_fits(func, &rule.search, def) {
        return None;
    }
    let comps = Comps::identity(func.defs[def].num_components);
    let masks = 1u32 << rule.num_commutative;
    // Masks known to fail (at most 2^8: the rule parser bounds the commutative ops).
    let mut dead = [0u64; 4];
    for swap_mask in 0..masks {
        if dead[(swap_mask >> 6) as usize] & (1 << (swap_mask & 63)) != 0 {
            continue;
        }
        let mut m = Matcher {
            func,
            info: &mut *info,
            vars: smallvec::smallvec![None; rule.num_vars],
            swap_mask,
            next_commutative: 0,
        };
        if m.match_value(&rule.search, def, &comps) {
            return Some(m.vars);
        }
        let used = m.next_commutative.min(rule.num_commutative);
        if used == 0 {
            return None;
        }
        let low = swap_mask & ((1u32 << used) - 1);
        let mut later = low;
        while later < masks {
            dead[(later >> 6) as usize] |= 1 << (later & 63);
            later += 1 << used;
        }
    }
    None
}

// ------------------------------------------------------------------ replacement

/// Bit size a replace node has on its own (vars, fixed-size results, or ops whose
/// unsized sources determine it); `None` for literals.
fn natural_bits(func: &FunctionImpl, vars: &[Option<Binding>], pat: &Pat) -> Option<u8> {
    match pat {
        Pat::Var { index, .. } => vars
            .get(usize::from(*index))?
            .as_ref()
            .map(|b| func.defs[b.def].bit_size),
        Pat::Lit(_) => None,
        Pat::Op { op, srcs, .. } => {
            let info = op.info();
            if info.output_type.bits != 0 {
                return Some(info.output_type.bits);
            }
            info.input_types
                .iter()
                .zip(srcs)
                .filter(|(t, _)| t.bits == 0)
                .find_map(|(_, s)| natural_bits(func, vars, s))
        }
    }
}

/// Checks that `pat` can be built with result size `want` (None = any); returns the
/// result bit size.
fn plan(func: &FunctionImpl, vars: &[Option<Binding>], pat: &Pat, want: Option<u8>) -> Option<u8> {
    match pat {
        Pat::Var { .. } => {
            let bits = natural_bits(func, vars, pat)?;
            (want.is_none_or(|w| w == bits)).then_some(bits)
        }
        Pat::Lit(_) => want,
        Pat::Op { op, srcs, .. } => {
            let info = op.info();
            let mut exec = if info.output_type.bits == 0 {
                want
            } else {
                None
            };
            if info.output_type.bits != 0 && want.is_some_and(|w| w != info.output_type.bits) {
                return None;
            }
            for (t, s) in info.input_types.iter().zip(srcs) {
                if t.bits == 0 {
                    if let Some(b) = natural_bits(func, vars, s) {
                        match exec {
                            None => exec = Some(b),
                            Some(e) if e != b => return None,
                            _ => {}
                        }
                    }
                }
            }
            for (t, s) in info.input_types.iter().zip(srcs) {
                let b = if t.bits != 0 { Some(t.bits) } else { exec };
                let got = plan(func, vars, s, b)?;
                if t.base == Base::Float && !matches!(got, 16 | 32 | 64) {
                    return None;
                }
            }
            let out = if info.output_type.bits != 0 {
                info.output_type.bits
            } else {
                exec?
            };
            if info.output_type.base == Base::Float && !matches!(out, 16 | 32 | 64) {
                return None;
            }
            Some(out)
        }
    }
}

struct Build<'a, 'f> {
    b: Builder<'f>,
    vars: &'a [Option<Binding>],
    comps: u8,
    exact: bool,
    created: Vec<Instr>,
}

impl Build<'_, '_> {
    fn src_of(&self, binding: &Binding) -> AluSrc {
        let mut swizzle = [0u8; 16];
        for (i, c) in binding.comps.as_slice().iter().enumerate() {
            swizzle[i] = *c;
        }
        AluSrc {
            def: binding.def,
            swizzle,
        }
    }

    /// Builds `pat` with result size `bits`; returns the source reading it.
    fn build(&mut self, pat: &Pat, bits: u8) -> Option<AluSrc> {
        match pat {
            Pat::Var { index, .. } => {
                let binding = self.vars.get(usize::from(*index))?.as_ref()?;
                Some(self.src_of(binding))
            }
            Pat::Lit(lit) => {
                let raw = lit_bits(*lit, bits)?;
                let def = self.b.load_const(bits, vec![raw]);
                self.created.push(self.b.func.defs[def].instr);
                Some(AluSrc {
                    def,
                    swizzle: [0; 16],
                })
            }
            Pat::Op { op, srcs, .. } => {
                let info = op.info();
                let mut exec = if info.output_type.bits == 0 {
                    Some(bits)
                } else {
                    None
                };
                for (t, s) in info.input_types.iter().zip(srcs) {
                    if t.bits == 0 && exec.is_none() {
                        exec = natural_bits(self.b.func, self.vars, s);
                    }
                }
                let mut built = Vec::with_capacity(srcs.len());
                for (t, s) in info.input_types.iter().zip(srcs) {
                    let b = if t.bits != 0 { t.bits } else { exec? };
                    built.push(self.build(s, b)?);
                }
                let def = self.b.alu(*op, built, self.comps);
                let instr = self.b.func.defs[def].instr;
                if let InstrKind::Alu(alu) = &mut self.b.func.instrs[instr].kind {
                    alu.exact = self.exact;
                }
                self.created.push(instr);
                Some(AluSrc::new(def))
            }
        }
    }
}

/// Replaces the ALU instruction `instr` per `rule` when it matches. Returns the newly
/// created instructions (to revisit), or `None` when nothing changed.
fn try_rewrite(
    func: &mut FunctionImpl,
    info: &mut UseInfo,
    rule: &Rule,
    instr: Instr,
) -> Option<Vec<Instr>> {
    let def = func.instrs[instr].def?;
    let vars = match_rule(func, info, rule, def)?;
    let dest = func.defs[def].clone();
    if plan(func, &vars, &rule.replace, Some(dest.bit_size))? != dest.bit_size {
        return None;
    }
    // Built before the replacement exists: `register_uses` adds its uses.
    let uses = info.get(func);
    let exact = matches!(&func.instrs[instr].kind, InstrKind::Alu(a) if a.exact);
    // A replacement that is just a variable read whole needs no new instruction.
    let direct = match &rule.replace {
        Pat::Var { index, .. } => vars
            .get(usize::from(*index))
            .and_then(|b| b.as_ref())
            .filter(|b| {
                func.defs[b.def].num_components == dest.num_components
                    && b.comps
                        .as_slice()
                        .iter()
                        .enumerate()
                        .all(|(i, c)| usize::from(*c) == i)
            })
            .map(|b| b.def),
        _ => None,
    };
    let (new_def, created) = match direct {
        Some(d) => (d, Vec::new()),
        None if matches!(rule.replace, Pat::Lit(_)) => {
            let Pat::Lit(lit) = rule.replace else {
                return None;
            };
            let raw = lit_bits(lit, dest.bit_size)?;
            let mut b = Builder::new(func, Cursor::Before(instr));
            let d = b.load_const(dest.bit_size, vec![raw; usize::from(dest.num_components)]);
            (d, vec![func.defs[d].instr])
        }
        None => {
            let mut build = Build {
                b: Builder::new(func, Cursor::Before(instr)),
                vars: &vars,
                comps: dest.num_components,
                exact,
                created: Vec::new(),
            };
            let src = build.build(&rule.replace, dest.bit_size);
            let created = std::mem::take(&mut build.created);
            let new_def = match src {
                Some(s) if is_whole(func, s, dest.num_components) => s.def,
                Some(s) => {
                    let mut b = Builder::new(func, Cursor::Before(instr));
                    let d = b.alu(Opcode::mov, [s], dest.num_components);
                    let mut created = created;
                    created.push(func.defs[d].instr);
                    register_uses(func, uses, &created);
                    finish(func, uses, instr, def, d);
                    return Some(created);
                }
                None => {
                    // Planning guarantees success; undo defensively if it did not.
                    for i in created {
                        func.remove_instr(i);
                    }
                    return None;
                }
            };
            (new_def, created)
        }
    };
    register_uses(func, uses, &created);
    finish(func, uses, instr, def, new_def);
    Some(created)
}

fn is_whole(func: &FunctionImpl, src: AluSrc, comps: u8) -> bool {
    func.defs[src.def].num_components == comps
        && (0..comps).all(|i| src.swizzle[usize::from(i)] == i)
}

fn register_uses(func: &FunctionImpl, uses: &mut Uses, created: &[Instr]) {
    for &i in created {
        func.instrs[i].for_each_src(|d| uses[d].push(Use::Instr(i)));
    }
}

/// Rewrites the uses of the old root and removes it.
fn finish(func: &mut FunctionImpl, uses: &mut Uses, instr: Instr, old: Def, new: Def) {
    func.rewrite_uses(Some(uses), old, new);
    let mut srcs: SmallVec<[Def; 4]> = SmallVec::new();
    func.instrs[instr].for_each_src(|d| srcs.push(d));
    for d in srcs {
        if let Some(pos) = uses[d].iter().position(|u| *u == Use::Instr(instr)) {
            uses[d].swap_remove(pos);
        }
    }
    func.remove_instr(instr);
}

fn algebraic_impl(func: &mut FunctionImpl, set: &RuleSet, exact_only: bool) -> bool {
    // Lists an earlier pass kept serve until the first rewrite keeps them current.
    let mut info = UseInfo {
        uses: func.take_kept_uses(),
    };
    // Every instruction in program order, reversed, filled in one buffer.
    let mut work: Vec<Instr> = Vec::with_capacity(func.instrs.len());
    for block in func.blocks_in_order() {
        let mut cur = func.blocks[block].first;
        while let Some(i) = cur {
            work.push(i);
            cur = func.instr_next(i);
        }
    }
    work.reverse();
    let mut budget = 16 * work.len() + 1024;
    let mut progress = false;
    while let Some(instr) = work.pop() {
        if func.instr_block(instr).is_none() {
            continue;
        }
        let InstrKind::Alu(alu) = &func.instrs[instr].kind else {
            continue;
        };
        for &r in set.rules_for(alu.op) {
            let rule = &set.rules[r];
            if exact_only && rule.inexact {
                continue;
            }
            if let Some(created) = try_rewrite(func, &mut info, rule, instr) {
                progress = true;
                // Revisit the new instructions (innermost first), then the users.
                for i in created.into_iter().rev() {
                    work.push(i);
                }
                break;
            }
        }
        if budget == 0 {
            break;
        }
        budget -= 1;
    }
    if let (false, Some(uses)) = (progress, info.uses) {
        func.keep_uses(uses);
    }
    progress
}
