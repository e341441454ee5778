//! `#if`/`#elif` expression evaluation over already macro-expanded tokens:
//! C operator precedence on 64-bit signed integers (as Mesa's `intmax_t`),
//! errors for division/modulus by zero, undefined identifiers as 0 (tracked so
//! ES can reject them), nesting bounded by `MAX_NESTING_DEPTH`.

use crate::diag::Error;
use crate::limits::MAX_NESTING_DEPTH;
use crate::span::SourceLoc;

use super::lexer::{sym, Interner, Sym, TKind, Tok};
use super::PpError;

/// Result of an expression: its value and the first undefined identifier that
/// contributed to it (Mesa's short-circuit rules).
#[derive(Clone, Copy, Debug)]
pub(super) struct Value {
    pub value: i64,
    pub undefined: Option<Sym>,
}

type EResult = Result<Value, (SourceLoc, Error)>;

/// Parses a C integer constant (decimal, octal, hex, optional `u`/`U`).
/// Values wrap to 64 bits like Mesa's `strtoll` use on the low bits.
pub(super) fn parse_int(text: &str) -> Option<i64> {
    let t = text.strip_suffix(['u', 'U']).unwrap_or(text);
    let (digits, radix) = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        (h, 16)
    } else if t.len() > 1 && t.starts_with('0') {
        (&t[1..], 8)
    } else {
        (t, 10)
    };
    if digits.is_empty() {
        return None;
    }
    let mut v: u64 = 0;
    for c in digits.chars() {
        let d = c.to_digit(radix)? as u64;
        v = v.wrapping_mul(radix as u64).wrapping_add(d);
    }
    Some(v as i64)
}

struct Parser<'a> {
    toks: &'a [Tok],
    pos: usize,
    int: &'a Interner,
    depth: usize,
    end_loc: SourceLoc,
}

/// Binary operator precedence (higher binds tighter), C order.
fn precedence(s: Sym) -> Option<u8> {
    Some(match s {
        sym::OR => 1,
        sym::AND => 2,
        sym::PIPE => 3,
        sym::CARET => 4,
        sym::AMP => 5,
        sym::EQ | sym::NE => 6,
        sym::LT | sym::GT | sym::LE | sym::GE => 7,
        sym::SHL | sym::SHR => 8,
        sym::PLUS | sym::MINUS => 9,
        sym::STAR | sym::SLASH | sym::PERCENT => 10,
        _ => return None,
    })
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }

    fn unexpected(&self) -> (SourceLoc, Error) {
        match self.peek() {
            Some(t) => (
                t.loc,
                PpError::ExpressionSyntax(format!("`{}'", self.int.get(t.sym))).into(),
            ),
            None => (
                self.end_loc,
                PpError::ExpressionSyntax("end of line".to_owned()).into(),
            ),
        }
    }

    fn enter(&mut self, loc: SourceLoc) -> Result<(), (SourceLoc, Error)> {
        self.depth += 1;
        if self.depth > MAX_NESTING_DEPTH {
            return Err((
                loc,
                Error::Limit {
                    what: "preprocessor expression nesting",
                    limit: MAX_NESTING_DEPTH,
                },
            ));
        }
        Ok(())
    }

    fn primary(&mut self) -> EResult {
        let Some(&t) = self.peek() else {
            return Err(self.unexpected());
        };
        match t.kind {
            TKind::Int => {
                self.pos += 1;
                let text = self.int.get(t.sym);
                match parse_int(text) {
                    Some(v) => Ok(Value {
                        value: v,
                        undefined: None,
                    }),
                    None => Err((t.loc, PpError::BadInteger(text.to_owned()).into())),
                }
            }
            TKind::Ident => {
                self.pos += 1;
                Ok(Value {
                    value: 0,
                    undefined: Some(t.sym),
                })
            }
            TKind::Punct if matches!(t.sym, sym::PLUS | sym::MINUS | sym::TILDE | sym::BANG) => {
                self.pos += 1;
                self.enter(t.loc)?;
                let v = self.primary()?;
                self.depth -= 1;
                let value = match t.sym {
                    sym::PLUS => v.value,
                    sym::MINUS => v.value.wrapping_neg(),
                    sym::TILDE => !v.value,
                    _ => (v.value == 0) as i64,
                };
                Ok(Value {
                    value,
                    undefined: v.undefined,
                })
            }
            TKind::Punct if t.sym == sym::LPAREN => {
                self.pos += 1;
                self.enter(t.loc)?;
                let v = self.binary(1)?;
                self.depth -= 1;
                match self.peek() {
                    Some(r) if r.is(sym::RPAREN) => {
                        self.pos += 1;
                        Ok(v)
                    }
                    _ => Err(self.unexpected()),
                }
            }
            _ => Err(self.unexpected()),
        }
    }

    /// Precedence climbing; the loop handles left associativity, recursion
    /// only goes one level per precedence step (at most 10 deep).
    fn binary(&mut self, min_prec: u8) -> EResult {
        let mut lhs = self.primary()?;
        loop {
            let Some(&op) = self.peek() else {
                return Ok(lhs);
            };
            if op.kind != TKind::Punct {
                return Ok(lhs);
            }
            let Some(prec) = precedence(op.sym) else {
                return Ok(lhs);
            };
            if prec < min_prec {
                return Ok(lhs);
            }
            self.pos += 1;
            let rhs = self.binary(prec + 1)?;
            lhs = apply(op, lhs, rhs)?;
        }
    }
}

fn apply(op: Tok, a: Value, b: Value) -> EResult {
    let (x, y) = (a.value, b.value);
    let undefined = match op.sym {
        // Mesa: an undefined name in a short-circuited operand is not reported.
        sym::OR => {
            if a.undefined.is_some() {
                a.undefined
            } else if x == 0 {
                b.undefined
            } else {
                None
            }
        }
        sym::AND => {
            if a.undefined.is_some() {
                a.undefined
            } else if x != 0 {
                b.undefined
            } else {
                None
            }
        }
        _ => a.undefined.or(b.undefined),
    };
    let value = match op.sym {
        sym::OR => (x != 0 || y != 0) as i64,
        sym::AND => (x != 0 && y != 0) as i64,
        sym::PIPE => x | y,
        sym::CARET => x ^ y,
        sym::AMP => x & y,
        sym::EQ => (x == y) as i64,
        sym::NE => (x != y) as i64,
        sym::LT => (x < y) as i64,
        sym::GT => (x > y) as i64,
        sym::LE => (x <= y) as i64,
        sym::GE => (x >= y) as i64,
        // Shift counts outside 0..64 are undefined in C; shift everything out.
        sym::SHL if (0..64).contains(&y) => x.wrapping_shl(y as u32),
        sym::SHL => 0,
        sym::SHR if (0..64).contains(&y) => x.wrapping_shr(y as u32),
        sym::SHR => x.signum().min(0),
        sym::PLUS => x.wrapping_add(y),
        sym::MINUS => x.wrapping_sub(y),
        sym::STAR => x.wrapping_mul(y),
        sym::SLASH => {
            if y == 0 {
                return Err((op.loc, PpError::DivisionByZero.into()));
            }
            x.wrapping_div(y)
        }
        sym::PERCENT => {
            if y == 0 {
                return Err((op.loc, PpError::ModulusByZero.into()));
            }
            x.wrapping_rem(y)
        }
        _ => 0,
    };
    Ok(Value { value, undefined })
}

/// Evaluates an expanded `#if` expression. `loc` locates errors at the end.
pub(super) fn evaluate(toks: &[Tok], int: &Interner, loc: SourceLoc) -> EResult {
    let mut p = Parser {
        toks,
        pos: 0,
        int,
        depth: 0,
        end_loc: loc,
    };
    let v = p.binary(1)?;
    if p.pos != toks.len() {
        return Err(p.unexpected());
    }
    Ok(v)
}
