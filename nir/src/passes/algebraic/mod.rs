//! The rule language of `opt_algebraic` (Mesa's `nir_opt_algebraic.py` notation, as
//! data): pattern trees, their parser, and the rule set indexed by root opcode.
//!
//! Rules are written in the [`rules!`] macro (see `rules.rs`), which captures the token
//! stream as text; [`RuleSet::get`] parses it once. One rule is
//! `search => replace;` where
//!
//! * an expression is `(op src, src, ...)`; `~op` marks an *inexact* search op (it only
//!   matches instructions not flagged `exact`, and the rule is reported as inexact for
//!   translation validation); `op@N` requires an N-bit result; `op:once` requires the
//!   matched value to have exactly one use (Mesa's `is_used_once`);
//! * a variable is a lowercase name (`a`, `b`, ...); `#a` must be a constant; `a@N`
//!   requires an N-bit value (`a@bool` = `a@1`); `a:pred` adds a predicate
//!   ([`Pred`]); a variable used twice must bind the same value and components;
//! * a constant is `0`, `-1`, `0x80000000` (integer), `1.0`, `-0.0` (float, matched
//!   bit-exactly including the sign of zero), `true`/`false`; its bit size comes from
//!   where it sits;
//! * commutative ops (opcode table `COMMUTATIVE`) match their first two sources in
//!   either order;
//! * every op used in a rule is per-component (vectorizable); matching looks through
//!   swizzles component-wise, and every new instruction has the matched root's
//!   component count.
//!
//! Rules are checked when the set is built (unknown opcodes, unbound replace variables,
//! literals of the wrong kind, horizontal ops); a test requires every rule to load.

pub mod rules;

use crate::opcodes::{Base, Opcode};
use std::sync::OnceLock;

/// Predicates on a bound variable.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Pred {
    /// Every read component is a positive power of two (integer constant).
    IsPosPowerOfTwo,
    /// Every read component is a negative power of two (integer constant).
    IsNegPowerOfTwo,
    /// The value is not a `load_const`.
    IsNotConst,
    /// Every read component of the float constant lies in [0, 1].
    IsZeroToOne,
    /// Every read component of the constant is non-zero.
    IsNotZero,
    /// Every read component of the float constant is finite.
    IsFinite,
    /// The float value is known non-negative from its definition (`fabs`, `fsat`,
    /// `b2f32`, `u2f32`, `fexp2`, `fsqrt`, a non-negative constant, ...).
    IsNotNegative,
}

impl Pred {
    fn parse(s: &str) -> Option<Pred> {
        Some(match s {
            "is_pos_power_of_two" => Pred::IsPosPowerOfTwo,
            "is_neg_power_of_two" => Pred::IsNegPowerOfTwo,
            "is_not_const" => Pred::IsNotConst,
            "is_zero_to_one" => Pred::IsZeroToOne,
            "is_not_zero" => Pred::IsNotZero,
            "is_finite" => Pred::IsFinite,
            "is_not_negative" => Pred::IsNotNegative,
            _ => return None,
        })
    }
}

/// A literal.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Lit {
    /// Integer (sign-extended / truncated to the bit size where it sits).
    Int(i64),
    /// Float (encoded at the bit size where it sits).
    Float(f64),
    /// Boolean (1 / all ones).
    Bool(bool),
}

/// A pattern node (search or replace side).
#[derive(Clone, Debug, PartialEq)]
pub enum Pat {
    /// A variable.
    Var {
        /// Index into the rule's variable table.
        index: u8,
        /// Must be a constant (`#a`).
        is_const: bool,
        /// Required bit size.
        bits: Option<u8>,
        /// Predicates.
        preds: Vec<Pred>,
    },
    /// A literal.
    Lit(Lit),
    /// An ALU op.
    Op {
        /// Opcode.
        op: Opcode,
        /// `~`: only matches non-exact instructions.
        inexact: bool,
        /// Required result bit size.
        bits: Option<u8>,
        /// Matched value must have one use.
        once: bool,
        /// Sources.
        srcs: Vec<Pat>,
    },
}

/// One rewrite rule.
#[derive(Clone, Debug)]
pub struct Rule {
    /// The rule as written (for diagnostics and the inexact list).
    pub text: String,
    /// Search pattern (always an op).
    pub search: Pat,
    /// Replacement.
    pub replace: Pat,
    /// Number of distinct variables.
    pub num_vars: usize,
    /// Number of commutative ops in the search pattern (both source orders are tried).
    pub num_commutative: u32,
    /// True when some search op is `~` (result may differ from the original in the
    /// last bits, the sign of zero or NaN handling; never applied to exact ALU ops).
    pub inexact: bool,
}

/// All rules, indexed by the root opcode of their search pattern.
pub struct RuleSet {
    /// Every rule in table order.
    pub rules: Vec<Rule>,
    by_root: Vec<Vec<usize>>,
    /// Rules that failed to load, with the reason (empty in a correct build).
    pub errors: Vec<String>,
}

impl RuleSet {
    /// The main rule set (parsed once).
    pub fn get() -> &'static RuleSet {
        static SET: OnceLock<RuleSet> = OnceLock::new();
        SET.get_or_init(|| RuleSet::from_text(rules::RULES))
    }

    /// The main rules plus the rules valid only without NaN/Inf operands
    /// ([`rules::RULES_NNAN`]; parsed once).
    pub fn with_nnan() -> &'static RuleSet {
        static SET: OnceLock<RuleSet> = OnceLock::new();
        SET.get_or_init(|| RuleSet::from_text(&format!("{}{}", rules::RULES, rules::RULES_NNAN)))
    }

    /// Parses `text` (rules separated by `;`).
    pub fn from_text(text: &str) -> RuleSet {
        let mut set = RuleSet {
            rules: Vec::new(),
            by_root: vec![Vec::new(); Opcode::ALL.len()],
            errors: Vec::new(),
        };
        for chunk in text.split(';') {
            let chunk = chunk.trim();
            if chunk.is_empty() {
                continue;
            }
            match parse_rule(chunk) {
                Ok(rule) => {
                    if let Pat::Op { op, .. } = &rule.search {
                        set.by_root[*op as usize].push(set.rules.len());
                    }
                    set.rules.push(rule);
                }
                Err(e) => set.errors.push(format!("rule `{chunk}`: {e}")),
            }
        }
        set
    }

    /// Indices of the rules whose search root is `op`.
    pub fn rules_for(&self, op: Opcode) -> &[usize] {
        self.by_root
            .get(op as usize)
            .map(|v| v.as_slice())
            .unwrap_or(&[])
    }

    /// Text of every inexact rule (for translation validation).
    pub fn inexact_rules(&self) -> Vec<&str> {
        self.rules
            .iter()
            .filter(|r| r.inexact)
            .map(|r| r.text.as_str())
            .collect()
    }
}

// ------------------------------------------------------------------ parser

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Open,
    Close,
    Tilde,
    Hash,
    At,
    Colon,
    Minus,
    Word(String),
}

fn tokenize(s: &str) -> Result<Vec<Tok>, String> {
    let mut out = Vec::new();
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        match c {
            ' ' | '\t' | '\n' | '\r' | ',' => {}
            '(' => out.push(Tok::Open),
            ')' => out.push(Tok::Close),
            '~' => out.push(Tok::Tilde),
            '#' => out.push(Tok::Hash),
            '@' => out.push(Tok::At),
            ':' => out.push(Tok::Colon),
            '-' => out.push(Tok::Minus),
            c if c.is_ascii_alphanumeric() || c == '_' || c == '.' => {
                let start = i - 1;
                while i < chars.len()
                    && (chars[i].is_ascii_alphanumeric() || chars[i] == '_' || chars[i] == '.')
                {
                    i += 1;
                }
                out.push(Tok::Word(chars[start..i].iter().collect()));
            }
            other => return Err(format!("unexpected character `{other}`")),
        }
    }
    Ok(out)
}

struct Parser {
    toks: Vec<Tok>,
    pos: usize,
    vars: Vec<String>,
    num_commutative: u32,
    inexact: bool,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }
    fn next(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.pos).cloned();
        self.pos += 1;
        t
    }
    fn word(&mut self) -> Result<String, String> {
        match self.next() {
            Some(Tok::Word(w)) => Ok(w),
            t => Err(format!("expected a name, found {t:?}")),
        }
    }
    fn bits(&mut self) -> Result<Option<u8>, String> {
        if self.peek() != Some(&Tok::At) {
            return Ok(None);
        }
        self.pos += 1;
        let w = self.word()?;
        let bits = match w.as_str() {
            "bool" => 1,
            _ => w.parse::<u8>().map_err(|_| format!("bad bit size `{w}`"))?,
        };
        if !matches!(bits, 1 | 8 | 16 | 32 | 64) {
            return Err(format!("bad bit size {bits}"));
        }
        Ok(Some(bits))
    }

    fn expr(&mut self, search: bool, depth: u32) -> Result<Pat, String> {
        if depth > 16 {
            return Err("pattern nested too deeply".into());
        }
        match self.next() {
            Some(Tok::Open) => {
                let inexact = if self.peek() == Some(&Tok::Tilde) {
                    self.pos += 1;
                    true
                } else {
                    false
                };
                let name = self.word()?;
                let op: Opcode = name
                    .parse()
                    .map_err(|_| format!("unknown opcode `{name}`"))?;
                let info = op.info();
                if info.output_size != 0 || info.input_sizes.iter().any(|s| *s != 0) {
                    return Err(format!("`{name}` is not a per-component op"));
                }
                let bits = self.bits()?;
                let mut once = false;
                while self.peek() == Some(&Tok::Colon) {
                    self.pos += 1;
                    match self.word()?.as_str() {
                        "once" => once = true,
                        w => return Err(format!("unknown op condition `{w}`")),
                    }
                }
                if !search && (inexact || once) {
                    return Err("`~` and `:once` belong to the search pattern".into());
                }
                if search && info.is_commutative() {
                    self.num_commutative += 1;
                }
                self.inexact |= inexact;
                let mut srcs = Vec::new();
                while self.peek() != Some(&Tok::Close) {
                    if self.peek().is_none() {
                        return Err("missing `)`".into());
                    }
                    let slot = info.input_types.get(srcs.len()).copied();
                    let src = self.expr(search, depth + 1)?;
                    if let (Pat::Lit(lit), Some(t)) = (&src, slot) {
                        let ok = match lit {
                            _ if t.base == Base::Uint => true,
                            Lit::Float(_) => t.base == Base::Float,
                            Lit::Int(_) => t.base == Base::Int,
                            Lit::Bool(_) => matches!(t.base, Base::Bool | Base::Int),
                        };
                        if !ok {
                            return Err(format!("literal {lit:?} in a {t} source of `{name}`"));
                        }
                    }
                    srcs.push(src);
                }
                self.pos += 1;
                if srcs.len() != info.num_inputs() {
                    return Err(format!(
                        "`{name}` takes {} sources, has {}",
                        info.num_inputs(),
                        srcs.len()
                    ));
                }
                Ok(Pat::Op {
                    op,
                    inexact,
                    bits,
                    once,
                    srcs,
                })
            }
            Some(Tok::Hash) => {
                let name = self.word()?;
                self.var(name, true, search)
            }
            Some(Tok::Minus) => match self.next() {
                Some(Tok::Word(w)) => match parse_lit(&w)? {
                    Lit::Int(v) => Ok(Pat::Lit(Lit::Int(v.wrapping_neg()))),
                    Lit::Float(v) => Ok(Pat::Lit(Lit::Float(-v))),
                    Lit::Bool(_) => Err("cannot negate a boolean".into()),
                },
                t => Err(format!("expected a number after `-`, found {t:?}")),
            },
            Some(Tok::Word(w)) => {
                if w.starts_with(|c: char| c.is_ascii_digit())
                    || matches!(w.as_str(), "true" | "false" | "inf" | "nan")
                {
                    Ok(Pat::Lit(parse_lit(&w)?))
                } else {
                    self.var(w, false, search)
                }
            }
            t => Err(format!("unexpected {t:?}")),
        }
    }

    fn var(&mut self, name: String, is_const: bool, search: bool) -> Result<Pat, String> {
        let bits = self.bits()?;
        let mut preds = Vec::new();
        while self.peek() == Some(&Tok::Colon) {
            self.pos += 1;
            let w = self.word()?;
            preds.push(Pred::parse(&w).ok_or(format!("unknown predicate `{w}`"))?);
        }
        let index = match self.vars.iter().position(|v| *v == name) {
            Some(i) => i,
            None if search => {
                self.vars.push(name);
                self.vars.len() - 1
            }
            None => {
                return Err(format!(
                    "replace variable `{name}` is not bound by the search"
                ))
            }
        };
        if !search && (is_const || bits.is_some() || !preds.is_empty()) {
            return Err("variable conditions belong to the search pattern".into());
        }
        Ok(Pat::Var {
            index: index as u8,
            is_const,
            bits,
            preds,
        })
    }
}

fn parse_lit(w: &str) -> Result<Lit, String> {
    match w {
        "true" => return Ok(Lit::Bool(true)),
        "false" => return Ok(Lit::Bool(false)),
        "inf" => return Ok(Lit::Float(f64::INFINITY)),
        _ => {}
    }
    if let Some(hex) = w.strip_prefix("0x") {
        return u64::from_str_radix(hex, 16)
            .map(|v| Lit::Int(v as i64))
            .map_err(|_| format!("bad hex literal `{w}`"));
    }
    if w.contains('.') || w.contains('e') {
        return w
            .parse::<f64>()
            .map(Lit::Float)
            .map_err(|_| format!("bad float literal `{w}`"));
    }
    w.parse::<i64>()
        .map(Lit::Int)
        .map_err(|_| format!("bad literal `{w}`"))
}

/// Parses one `search => replace` rule.
pub fn parse_rule(text: &str) -> Result<Rule, String> {
    let (search_text, replace_text) = text
        .split_once("=>")
        .ok_or_else(|| "missing `=>`".to_string())?;
    let mut p = Parser {
        toks: tokenize(search_text)?,
        pos: 0,
        vars: Vec::new(),
        num_commutative: 0,
        inexact: false,
    };
    let search = p.expr(true, 0)?;
    if p.pos != p.toks.len() {
        return Err("trailing tokens after the search pattern".into());
    }
    if !matches!(search, Pat::Op { .. }) {
        return Err("the search pattern must be an op".into());
    }
    p.toks = tokenize(replace_text)?;
    p.pos = 0;
    let replace = p.expr(false, 0)?;
    if p.pos != p.toks.len() {
        return Err("trailing tokens after the replacement".into());
    }
    if p.num_commutative > 8 {
        return Err("too many commutative ops in one pattern".into());
    }
    let normalized = text.split_whitespace().collect::<Vec<_>>().join(" ");
    Ok(Rule {
        text: normalized,
        search,
        replace,
        num_vars: p.vars.len(),
        num_commutative: p.num_commutative,
        inexact: p.inexact,
    })
}

/// Declares a rule table as data: the tokens are kept as text and parsed by
/// [`RuleSet::from_text`] (see the module doc for the notation).
#[macro_export]
macro_rules! rules {
    ($($t:tt)*) => {
        stringify!($($t)*)
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_loads() {
        let set = RuleSet::get();
        assert_eq!(set.errors, Vec::<String>::new());
        assert!(set.rules.len() > 150, "{} rules", set.rules.len());
        let all = RuleSet::with_nnan();
        assert_eq!(all.errors, Vec::<String>::new());
        assert!(all.rules.len() > set.rules.len());
    }

    #[test]
    fn bad_rules_are_reported() {
        let set = RuleSet::from_text(
            "(fadd a, 0) => a; (nosuchop a) => a; (fadd a, b) => c; (fdot3 a, b) => a; (fneg a) => (fneg:once a)",
        );
        let reasons: Vec<&str> = set
            .errors
            .iter()
            .map(|e| e.rsplit(": ").next().unwrap_or(""))
            .collect();
        assert_eq!(
            reasons,
            [
                "literal Int(0) in a float source of `fadd`",
                "unknown opcode `nosuchop`",
                "replace variable `c` is not bound by the search",
                "`fdot3` is not a per-component op",
                "`~` and `:once` belong to the search pattern",
            ]
        );
    }
}
