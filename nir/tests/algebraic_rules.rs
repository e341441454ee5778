//! Every `opt_algebraic` rule, checked on its own search pattern: for each rule a
//! vertex shader computing the pattern (variables read from inputs, `#` variables as
//! constants satisfying their predicates, literals as constants) is generated, and
//!
//! * the rule set must rewrite it, keeping the IR valid;
//! * for a rule not marked inexact, `opt_algebraic_exact` (exact rules only) must
//!   rewrite it and the shader must compute bit-identical outputs before and after,
//!   evaluated with `rgl_nir::eval` on special values (±0, ±1, ±inf, NaN, extremes)
//!   and seeded random inputs. This checks each exactness claim of `rules.rs`.

use rgl_nir::eval::{evaluate, EvalInput, InputKey};
use rgl_nir::ir::names::VERT_ATTRIB_GENERIC0;
use rgl_nir::opcodes::{encode, mask, Base, Val};
use rgl_nir::passes::algebraic::{Lit, Pat, Pred, Rule, RuleSet};
use rgl_nir::passes::{pass_by_name, run_pass};
use std::fmt::Write;

/// What a generated value is.
#[derive(Copy, Clone, PartialEq)]
enum Kind {
    Float,
    Int,
}

struct Gen {
    body: String,
    next: u32,
    vars: Vec<Option<u32>>,
    float_inputs: u8,
    int_inputs: u8,
}

impl Gen {
    fn def(&mut self) -> u32 {
        self.next += 1;
        self.next
    }

    /// Bit size a node has on its own (None: takes it from where it sits).
    fn natural_bits(pat: &Pat) -> Option<u8> {
        match pat {
            Pat::Var { bits, .. } => *bits,
            Pat::Lit(Lit::Bool(_)) => Some(1),
            Pat::Lit(_) => None,
            Pat::Op { op, bits, srcs, .. } => {
                let info = op.info();
                if info.output_type.bits != 0 {
                    return Some(info.output_type.bits);
                }
                bits.or_else(|| {
                    info.input_types
                        .iter()
                        .zip(srcs)
                        .filter(|(t, _)| t.bits == 0)
                        .find_map(|(_, s)| Self::natural_bits(s))
                })
            }
        }
    }

    /// Emits `pat` with result size `bits` and value kind `kind`; returns its def.
    fn emit(&mut self, pat: &Pat, bits: u8, kind: Kind) -> Option<u32> {
        match pat {
            Pat::Var {
                index,
                is_const,
                preds,
                ..
            } => {
                if let Some(Some(d)) = self.vars.get(usize::from(*index)) {
                    return Some(*d);
                }
                let d = self.def();
                if *is_const {
                    let value: u64 = if preds.contains(&Pred::IsPosPowerOfTwo) {
                        8
                    } else if preds.contains(&Pred::IsNegPowerOfTwo) {
                        (-8i64 as u64) & mask(bits)
                    } else if bits == 1 {
                        1
                    } else if kind == Kind::Float {
                        encode(Val::F(1.5), bits)?
                    } else {
                        3
                    };
                    writeln!(self.body, "    {bits} %{d} = load_const (0x{value:x})").ok()?;
                } else if bits == 1 {
                    let c = self.float_inputs % 4;
                    self.float_inputs += 1;
                    let comp = ["x", "y", "z", "w"][usize::from(c)];
                    writeln!(self.body, "    1 %{d} = flt %1.{comp}, %2.{comp}").ok()?;
                } else if bits == 32 {
                    let (src, c) = match kind {
                        Kind::Float => {
                            self.float_inputs += 1;
                            (1, self.float_inputs % 4)
                        }
                        Kind::Int => {
                            self.int_inputs += 1;
                            (3, self.int_inputs % 4)
                        }
                    };
                    let comp = ["x", "y", "z", "w"][usize::from(c)];
                    writeln!(self.body, "    32 %{d} = mov %{src}.{comp}").ok()?;
                } else {
                    return None;
                }
                self.vars[usize::from(*index)] = Some(d);
                Some(d)
            }
            Pat::Lit(lit) => {
                let raw = match lit {
                    Lit::Int(v) => (*v as u64) & mask(bits),
                    Lit::Float(v) => encode(Val::F(*v), bits)?,
                    Lit::Bool(b) => encode(Val::B(*b), bits)?,
                };
                let d = self.def();
                writeln!(self.body, "    {bits} %{d} = load_const (0x{raw:x})").ok()?;
                Some(d)
            }
            Pat::Op { op, srcs, .. } => {
                let info = op.info();
                let exec = if info.output_type.bits == 0 {
                    bits
                } else {
                    info.input_types
                        .iter()
                        .zip(srcs)
                        .filter(|(t, _)| t.bits == 0)
                        .find_map(|(_, s)| Self::natural_bits(s))
                        .unwrap_or(32)
                };
                let mut args = Vec::new();
                for (t, s) in info.input_types.iter().zip(srcs) {
                    let b = if t.bits != 0 { t.bits } else { exec };
                    let k = match t.base {
                        Base::Float => Kind::Float,
                        Base::Uint => kind,
                        _ => Kind::Int,
                    };
                    args.push(format!("%{}", self.emit(s, b, k)?));
                }
                let out_bits = if info.output_type.bits != 0 {
                    info.output_type.bits
                } else {
                    exec
                };
                let d = self.def();
                writeln!(self.body, "    {out_bits} %{d} = {op} {}", args.join(", ")).ok()?;
                Some(d)
            }
        }
    }
}

/// The generated shader for `rule`, or None when its pattern cannot be instantiated
/// with 32-bit/1-bit values.
fn shader_for(rule: &Rule) -> Option<String> {
    let Pat::Op { op, .. } = &rule.search else {
        return None;
    };
    let info = op.info();
    let root_bits = if info.output_type.bits != 0 {
        info.output_type.bits
    } else {
        Gen::natural_bits(&rule.search).unwrap_or(32)
    };
    let kind = match info.output_type.base {
        Base::Float => Kind::Float,
        _ => Kind::Int,
    };
    let mut g = Gen {
        body: String::new(),
        next: 8,
        vars: vec![None; rule.num_vars],
        float_inputs: 0,
        int_inputs: 0,
    };
    let root = g.emit(&rule.search, root_bits, kind)?;
    let out = g.def();
    let (store_deref, value) = match (root_bits, kind) {
        (1, _) => {
            writeln!(g.body, "    32 %{out} = b2i32 %{root}").ok()?;
            (6, out)
        }
        (32, Kind::Float) => (5, root),
        (32, Kind::Int) => (6, root),
        _ => return None,
    };
    let v4 = g.def();
    writeln!(
        g.body,
        "    32x4 %{v4} = vec4 %{value}, %{value}, %{value}, %{value}"
    )
    .ok()?;
    writeln!(
        g.body,
        "    @store_deref (%{store_deref}, %{v4}) (wrmask=xyzw, access=none)"
    )
    .ok()?;
    Some(format!(
        "shader: MESA_SHADER_VERTEX
inputs: 2
outputs: 2
uniforms: 0
decl_var shader_in INTERP_MODE_NONE none vec4 fa (VERT_ATTRIB_GENERIC0.xyzw, 0, 0)
decl_var shader_in INTERP_MODE_NONE none vec4 fb (VERT_ATTRIB_GENERIC1.xyzw, 1, 0)
decl_var shader_in INTERP_MODE_NONE none ivec4 ia (VERT_ATTRIB_GENERIC2.xyzw, 2, 0)
decl_var shader_out INTERP_MODE_NONE none vec4 fo (VARYING_SLOT_VAR0.xyzw, 0, 0)
decl_var shader_out INTERP_MODE_NONE none ivec4 io (VARYING_SLOT_VAR1.xyzw, 1, 0)
decl_function main () (entrypoint)

impl main {{
    block b0:
    32 %0 = deref_var &fa (shader_in vec4)
    32x4 %1 = @load_deref (%0) (access=none)
    32 %7 = deref_var &fb (shader_in vec4)
    32x4 %2 = @load_deref (%7) (access=none)
    32 %4 = deref_var &ia (shader_in ivec4)
    32x4 %3 = @load_deref (%4) (access=none)
    32 %5 = deref_var &fo (shader_out vec4)
    32 %6 = deref_var &io (shader_out ivec4)
{}    block b1:
}}
",
        g.body
    ))
}

const SPECIAL_FLOATS: [f32; 12] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    2.0,
    -3.25,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
    f32::MAX,
    1.0e-40,
];
const SPECIAL_INTS: [i32; 8] = [0, 1, -1, 2, 7, -8, i32::MIN, i32::MAX];

fn inputs(seed: u64) -> EvalInput {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = || {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    let mut input = EvalInput::default();
    for attrib in 0..3 {
        for c in 0..4u8 {
            let r = next();
            let word = if attrib < 2 {
                if r % 3 == 0 {
                    SPECIAL_FLOATS[(r >> 8) as usize % SPECIAL_FLOATS.len()].to_bits()
                } else {
                    ((((r >> 16) % 20001) as f32 - 10000.0) / 997.0).to_bits()
                }
            } else if r % 3 == 0 {
                SPECIAL_INTS[(r >> 8) as usize % SPECIAL_INTS.len()] as u32
            } else {
                (((r >> 16) % 41) as i32 - 20) as u32
            };
            input.inputs.insert(
                InputKey {
                    vertex: 0,
                    location: VERT_ATTRIB_GENERIC0 + attrib,
                    component: c,
                },
                word,
            );
        }
    }
    input
}

/// Equal words, or both NaN when read as floats (NaN sign and payload are not
/// specified, as in translation validation).
fn same_outputs(a: &rgl_nir::eval::Outputs, b: &rgl_nir::eval::Outputs) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|((ka, va), (kb, vb))| {
            ka == kb && (va == vb || (f32::from_bits(*va).is_nan() && f32::from_bits(*vb).is_nan()))
        })
}

#[test]
fn every_rule_rewrites_its_pattern_and_exact_rules_are_exact() {
    let set = RuleSet::get();
    let all = pass_by_name("opt_algebraic").expect("registered");
    let exact = pass_by_name("opt_algebraic_exact").expect("registered");
    let mut failures = Vec::new();
    let mut checked = 0;
    for rule in &set.rules {
        let Some(text) = shader_for(rule) else {
            failures.push(format!("{}: pattern cannot be instantiated", rule.text));
            continue;
        };
        let original = match rgl_nir::reader::parse_shader(&text) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{}: generated shader: {e}\n{text}", rule.text));
                continue;
            }
        };
        if let Err(e) = rgl_nir::validate::validate(&original) {
            failures.push(format!(
                "{}: generated shader invalid: {e}\n{text}",
                rule.text
            ));
            continue;
        }
        let mut rewritten = original.clone();
        match run_pass(all.as_ref(), &mut rewritten) {
            Ok(true) => {}
            Ok(false) => failures.push(format!("{}: no rewrite\n{text}", rule.text)),
            Err(e) => failures.push(format!("{}: {e}", rule.text)),
        }
        if rule.inexact {
            continue;
        }
        let mut rewritten = original.clone();
        match run_pass(exact.as_ref(), &mut rewritten) {
            Ok(true) => {}
            Ok(false) => {
                failures.push(format!(
                    "{}: opt_algebraic_exact did not rewrite\n{text}",
                    rule.text
                ));
                continue;
            }
            Err(e) => {
                failures.push(format!("{}: {e}", rule.text));
                continue;
            }
        }
        for seed in 0..64 {
            let input = inputs(seed);
            let before = evaluate(&original, &input).map(|o| o.outputs);
            let after = evaluate(&rewritten, &input).map(|o| o.outputs);
            match (before, after) {
                (Ok(b), Ok(a)) if same_outputs(&b, &a) => {}
                (b, a) => {
                    failures.push(format!(
                        "{}: results differ (seed {seed}): {b:?} vs {a:?}\n{}",
                        rule.text,
                        rgl_nir::print::print_shader(&rewritten)
                    ));
                    break;
                }
            }
        }
        checked += 1;
    }
    assert!(checked > 100, "only {checked} exact rules checked");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
