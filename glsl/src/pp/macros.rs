//! Macro definition (`#define`/`#undef` with Mesa's reserved-name and
//! redefinition rules) and C-exact macro expansion: argument pre-expansion,
//! `##` pasting, rescanning with disabled ("painted") macro names. Expansion is
//! iterative over a stack of token contexts; only argument pre-expansion
//! recurses, and every level is bounded by `MAX_MACRO_EXPANSION_DEPTH`.

use std::rc::Rc;

use crate::diag::Error;
use crate::limits::{MAX_EXPANDED_TOKENS, MAX_MACRO_EXPANSION_DEPTH};
use crate::span::SourceLoc;

use super::directives::Pp;
use super::lexer::{lex_single, sym, Sym, TKind, Tok, F_NO_EXPAND, F_WS};
use super::PpError;

/// "No macro" marker in [`Pp::macro_of`] and [`Ctx::mac`].
pub(super) const NO_MACRO: u32 = u32::MAX;

/// One macro definition.
#[derive(Clone, Debug)]
pub(super) struct Macro {
    /// Name.
    pub name: Sym,
    /// Function-like (`#define f(x) …`).
    pub function: bool,
    /// Parameter names.
    pub params: Vec<Sym>,
    /// Replacement list; parameters appear as [`TKind::Param`] tokens.
    pub body: Rc<[Tok]>,
    /// Predefined by the implementation.
    pub builtin: bool,
    /// Number of expansion contexts of this macro currently open (while
    /// non-zero the macro is disabled).
    pub active: u32,
}

impl Macro {
    /// C's rule for benign redefinition: same kind, same parameters, same
    /// replacement tokens with whitespace in the same places.
    fn same_definition(&self, other: &Macro) -> bool {
        self.function == other.function
            && self.params == other.params
            && self.body.len() == other.body.len()
            && self
                .body
                .iter()
                .zip(other.body.iter())
                .enumerate()
                .all(|(i, (a, b))| {
                    a.kind == b.kind && a.sym == b.sym && (i == 0 || a.ws() == b.ws())
                })
    }
}

/// A stream of tokens being rescanned: the source line or one macro's
/// replacement. While it is on the stack its macro is disabled.
pub(super) struct Ctx {
    pub toks: Vec<Tok>,
    pub pos: usize,
    pub mac: u32,
}

/// Where expansion reads from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    /// Program text: invocations may continue on following lines.
    Source,
    /// An isolated token list (macro argument, `#line`).
    List,
    /// An `#if`/`#elif` expression: also evaluates `defined`.
    If,
}

impl Pp<'_> {
    // ----- #define / #undef -----------------------------------------------

    /// Checks a name being defined against the reserved-name rules.
    fn check_reserved(&mut self, name: &Tok) {
        let text = self.int.get(name.sym);
        let double = text.contains("__");
        let gl = text.starts_with("GL_");
        let defined = name.sym == sym::DEFINED;
        if double {
            self.warning(name.loc, PpError::ReservedDoubleUnderscore);
        }
        if gl {
            self.error(name.loc, PpError::ReservedGlPrefix);
        }
        if defined {
            self.error(name.loc, PpError::DefinedAsMacroName);
        }
    }

    /// `#define`.
    pub(super) fn define(&mut self, line: &[Tok]) {
        let Some(&name) = line.get(2) else {
            self.error(line[0].loc, PpError::MissingMacroName("define"));
            return;
        };
        if name.kind != TKind::Ident {
            let text = self.text_of(&name);
            self.error(name.loc, PpError::DefineNonIdentifier(text));
            return;
        }
        self.check_reserved(&name);
        let mut i = 3;
        let mut params = Vec::new();
        let function = line.get(3).is_some_and(|t| t.is(sym::LPAREN) && !t.ws());
        if function {
            i = 4;
            let mut expect_name = true;
            loop {
                let Some(t) = line.get(i) else {
                    self.error(line[line.len() - 1].loc, PpError::BadParameterList);
                    return;
                };
                i += 1;
                if t.is(sym::DOT) {
                    self.error(t.loc, PpError::VariadicMacro);
                    return;
                }
                if expect_name {
                    if t.kind == TKind::Ident {
                        if params.contains(&t.sym) {
                            let dup = self.text_of(t);
                            self.error(t.loc, PpError::DuplicateParameter(dup));
                            return;
                        }
                        params.push(t.sym);
                        expect_name = false;
                        continue;
                    }
                    if t.is(sym::RPAREN) && params.is_empty() {
                        break;
                    }
                    self.error(t.loc, PpError::BadParameterList);
                    return;
                }
                if t.is(sym::COMMA) {
                    expect_name = true;
                } else if t.is(sym::RPAREN) {
                    break;
                } else {
                    self.error(t.loc, PpError::BadParameterList);
                    return;
                }
            }
        }
        let mut body: Vec<Tok> = line[i..].to_vec();
        let mut ok = true;
        for (k, t) in body.iter_mut().enumerate() {
            if k == 0 {
                t.flags &= !F_WS;
            }
            if t.kind == TKind::Ident {
                if let Some(p) = params.iter().position(|&p| p == t.sym) {
                    t.kind = TKind::Param;
                    t.sym = Sym(p as u32);
                }
            }
        }
        if self.version.is_es() {
            for t in body
                .iter()
                .filter(|t| t.kind == TKind::Punct && t.sym == sym::PASTE)
            {
                self.error(t.loc, PpError::PasteInEs);
                ok = false;
            }
        }
        for t in &body {
            if t.kind == TKind::Punct && t.sym == sym::HASH {
                self.error(t.loc, PpError::Stringification);
                ok = false;
                break;
            }
        }
        let is_paste = |t: &Tok| t.kind == TKind::Punct && t.sym == sym::PASTE;
        if body.first().is_some_and(is_paste) || body.last().is_some_and(is_paste) {
            let loc = body
                .iter()
                .find(|t| is_paste(t))
                .map_or(name.loc, |t| t.loc);
            self.error(loc, PpError::PasteAtEdge);
            ok = false;
        }
        if !ok {
            return;
        }
        let m = Macro {
            name: name.sym,
            function,
            params,
            body: Rc::from(body),
            builtin: false,
            active: 0,
        };
        if let Some(old) = self.macro_index(name.sym) {
            if self.macros[old].same_definition(&m) {
                return;
            }
            let text = self.text_of(&name);
            self.error(name.loc, PpError::Redefinition(text));
            if self.macros[old].builtin {
                return;
            }
        }
        self.install_macro(m);
    }

    /// `#undef`.
    pub(super) fn undef(&mut self, line: &[Tok]) {
        let Some(&name) = line.get(2) else {
            self.error(line[0].loc, PpError::MissingMacroName("undef"));
            return;
        };
        if name.kind != TKind::Ident {
            self.error(name.loc, PpError::MacroNameNotIdentifier);
            return;
        }
        if let Some(extra) = line.get(3) {
            self.error(extra.loc, PpError::ExtraTokens);
        }
        // Mesa's rules: `GL_` names can never be undefined; names containing
        // `__` are an error in GLSL ES up to 3.00 (the three built-ins
        // specifically in 3.00) and a warning elsewhere.
        let text = self.int.get(name.sym);
        if text.starts_with("GL_") {
            self.error(name.loc, PpError::UndefGlPrefix);
        } else if text.contains("__") {
            let v = self.version;
            let builtin =
                name.sym == sym::LINE || name.sym == sym::FILE || name.sym == sym::VERSION;
            if v.is_es() && v.number >= 300 && builtin {
                self.error(name.loc, PpError::UndefBuiltin);
            } else if v.is_es() && v.number <= 300 {
                self.error(name.loc, PpError::UndefDoubleUnderscore);
            } else {
                self.warning(name.loc, PpError::UndefDoubleUnderscore);
            }
        }
        self.remove_macro(name.sym);
    }

    // ----- expansion ---------------------------------------------------------

    /// Next token from the context stack, closing exhausted contexts (which
    /// re-enables their macros). With `refill` (source mode only) an
    /// invocation may continue onto following text lines.
    fn next_token(&mut self, stack: &mut Vec<Ctx>, mode: Mode, refill: bool) -> Option<Tok> {
        loop {
            if let Some(top) = stack.last_mut() {
                if let Some(&t) = top.toks.get(top.pos) {
                    top.pos += 1;
                    return Some(t);
                }
                self.pop_ctx(stack);
                continue;
            }
            if refill && mode == Mode::Source {
                if let Some(line) = self.fetch_text_line() {
                    stack.push(Ctx {
                        toks: line,
                        pos: 0,
                        mac: NO_MACRO,
                    });
                    continue;
                }
            }
            return None;
        }
    }

    fn pop_ctx(&mut self, stack: &mut Vec<Ctx>) {
        if let Some(c) = stack.pop() {
            if c.mac != NO_MACRO {
                if let Some(m) = self.macros.get_mut(c.mac as usize) {
                    m.active = m.active.saturating_sub(1);
                }
            }
            self.give_vec(c.toks);
        }
    }

    /// True if the next token is `(` (looking past exhausted contexts and, in
    /// source mode, onto following lines).
    fn peek_lparen(&mut self, stack: &mut Vec<Ctx>, mode: Mode) -> bool {
        loop {
            if let Some(top) = stack.last() {
                if let Some(t) = top.toks.get(top.pos) {
                    return t.is(sym::LPAREN);
                }
                self.pop_ctx(stack);
                continue;
            }
            if mode == Mode::Source {
                if let Some(line) = self.fetch_text_line() {
                    stack.push(Ctx {
                        toks: line,
                        pos: 0,
                        mac: NO_MACRO,
                    });
                    continue;
                }
            }
            return false;
        }
    }

    /// Drops every context (after a fatal limit).
    fn abort_stack(&mut self, stack: &mut Vec<Ctx>) {
        self.aborted = true;
        while !stack.is_empty() {
            self.pop_ctx(stack);
        }
    }

    /// Expands everything readable from `stack` into `out`. `base_depth` is
    /// the expansion depth of the caller (argument pre-expansion nests).
    pub(super) fn expand(
        &mut self,
        stack: &mut Vec<Ctx>,
        mode: Mode,
        out: &mut Vec<Tok>,
        base_depth: usize,
    ) {
        while let Some(mut t) = self.next_token(stack, mode, false) {
            if self.aborted {
                self.abort_stack(stack);
                return;
            }
            if t.kind != TKind::Ident || t.flags & F_NO_EXPAND != 0 {
                out.push(t);
                continue;
            }
            if mode == Mode::If && t.sym == sym::DEFINED {
                let v = self.eval_defined(stack, mode, t);
                let tok = self.int_token(v as u64, t.loc, t.flags);
                out.push(tok);
                continue;
            }
            if t.sym == sym::LINE {
                let tok = self.int_token(self.line_macro_line as u64, t.loc, t.flags);
                out.push(tok);
                continue;
            }
            if t.sym == sym::FILE {
                let tok = self.int_token(t.loc.source as u64, t.loc, t.flags);
                out.push(tok);
                continue;
            }
            let Some(mi) = self.macro_index(t.sym) else {
                out.push(t);
                continue;
            };
            if self.macros[mi].active > 0 {
                t.flags |= F_NO_EXPAND;
                out.push(t);
                continue;
            }
            let depth = base_depth + stack.len();
            if depth >= MAX_MACRO_EXPANSION_DEPTH {
                self.error(
                    t.loc,
                    Error::Limit {
                        what: "macro expansion depth",
                        limit: MAX_MACRO_EXPANSION_DEPTH,
                    },
                );
                self.abort_stack(stack);
                return;
            }
            let replacement = if self.macros[mi].function {
                if !self.peek_lparen(stack, mode) {
                    out.push(t);
                    continue;
                }
                self.next_token(stack, mode, true);
                let Some(args) = self.collect_args(stack, mode, &t) else {
                    continue;
                };
                let expected = self.macros[mi].params.len();
                let given = args.len();
                let empty_call = expected == 0 && given == 1 && args[0].is_empty();
                if given != expected && !empty_call {
                    let name = self.text_of(&t);
                    self.error(
                        t.loc,
                        PpError::ArgumentCount {
                            name,
                            given,
                            expected,
                        },
                    );
                    continue;
                }
                self.substitute(mi, &args, &t, mode, depth)
            } else {
                self.substitute(mi, &[], &t, mode, depth)
            };
            if self.aborted {
                self.abort_stack(stack);
                return;
            }
            self.macros[mi].active += 1;
            stack.push(Ctx {
                toks: replacement,
                pos: 0,
                mac: mi as u32,
            });
        }
    }

    /// `defined X` / `defined ( X )` inside `#if`.
    fn eval_defined(&mut self, stack: &mut Vec<Ctx>, mode: Mode, at: Tok) -> bool {
        let mut name = self.next_token(stack, mode, false);
        let paren = name.is_some_and(|t| t.is(sym::LPAREN));
        if paren {
            name = self.next_token(stack, mode, false);
        }
        let Some(n) = name.filter(|n| n.kind == TKind::Ident) else {
            self.error(at.loc, PpError::DefinedWithoutName);
            self.if_error = true;
            return false;
        };
        if paren {
            match self.next_token(stack, mode, false) {
                Some(r) if r.is(sym::RPAREN) => {}
                _ => {
                    self.error(at.loc, PpError::DefinedWithoutName);
                    self.if_error = true;
                    return false;
                }
            }
        }
        self.is_defined(n.sym)
    }

    /// Reads the arguments of a function-like invocation after its `(`.
    fn collect_args(
        &mut self,
        stack: &mut Vec<Ctx>,
        mode: Mode,
        name: &Tok,
    ) -> Option<Vec<Vec<Tok>>> {
        let mut args: Vec<Vec<Tok>> = vec![Vec::new()];
        let mut depth = 0usize;
        loop {
            let Some(t) = self.next_token(stack, mode, true) else {
                let text = self.text_of(name);
                self.error(name.loc, PpError::UnbalancedParentheses(text));
                return None;
            };
            if t.is(sym::LPAREN) {
                depth += 1;
            } else if t.is(sym::RPAREN) {
                if depth == 0 {
                    return Some(args);
                }
                depth -= 1;
            } else if t.is(sym::COMMA) && depth == 0 {
                args.push(Vec::new());
                continue;
            }
            if let Some(a) = args.last_mut() {
                a.push(t);
            }
        }
    }

    /// Fully expands one argument in isolation.
    fn expand_isolated(&mut self, toks: &[Tok], mode: Mode, depth: usize) -> Vec<Tok> {
        let mut input = self.take_vec();
        input.extend_from_slice(toks);
        let mut stack = vec![Ctx {
            toks: input,
            pos: 0,
            mac: NO_MACRO,
        }];
        let mut out = Vec::with_capacity(toks.len());
        let sub_mode = if mode == Mode::If {
            Mode::If
        } else {
            Mode::List
        };
        let saved_line = self.line_macro_line;
        if let Some(last) = toks.last() {
            self.line_macro_line = last.loc.line;
        }
        self.expand(&mut stack, sub_mode, &mut out, depth);
        self.line_macro_line = saved_line;
        out
    }

    /// Counts produced tokens against the global limit.
    fn charge(&mut self, n: usize, loc: SourceLoc) -> bool {
        self.expanded_count = self.expanded_count.saturating_add(n);
        if self.expanded_count > MAX_EXPANDED_TOKENS {
            if !self.aborted {
                self.error(
                    loc,
                    Error::Limit {
                        what: "number of macro-expanded tokens",
                        limit: MAX_EXPANDED_TOKENS,
                    },
                );
            }
            self.aborted = true;
            return false;
        }
        true
    }

    /// Builds the replacement of one invocation: parameters replaced by their
    /// (pre-expanded, unless next to `##`) arguments, then pasting.
    fn substitute(
        &mut self,
        mi: usize,
        args: &[Vec<Tok>],
        name: &Tok,
        mode: Mode,
        depth: usize,
    ) -> Vec<Tok> {
        let body = self.macros[mi].body.clone();
        let mut out = self.take_vec();
        if !self.charge(body.len(), name.loc) {
            return out;
        }
        let relocate = |t: &Tok, first: bool| Tok {
            sym: t.sym,
            kind: t.kind,
            flags: if first {
                name.flags & F_WS
            } else {
                t.flags & F_WS
            },
            loc: name.loc,
        };
        let placemarker = Tok {
            sym: sym::HASH,
            kind: TKind::Placemarker,
            flags: 0,
            loc: name.loc,
        };
        let mut expanded: Vec<Option<Vec<Tok>>> = vec![None; args.len()];
        let is_paste = |t: &Tok| t.kind == TKind::Punct && t.sym == sym::PASTE;
        let mut has_paste = false;
        let mut i = 0;
        while i < body.len() {
            let bt = body[i];
            if is_paste(&bt) {
                has_paste = true;
                i += 1;
                let Some(&rt) = body.get(i) else { break };
                let rhs: Vec<Tok> = if rt.kind == TKind::Param {
                    let a = &args[rt.sym.0 as usize];
                    if a.is_empty() {
                        vec![placemarker]
                    } else {
                        a.clone()
                    }
                } else {
                    vec![relocate(&rt, false)]
                };
                if !self.charge(rhs.len(), name.loc) {
                    return out;
                }
                let lhs = out.pop().unwrap_or(placemarker);
                match self.paste(lhs, rhs[0]) {
                    Ok(p) => out.push(p),
                    Err(()) => {
                        out.push(lhs);
                        out.push(rhs[0]);
                    }
                }
                out.extend_from_slice(&rhs[1..]);
                i += 1;
                continue;
            }
            if bt.kind == TKind::Param {
                let p = bt.sym.0 as usize;
                let next_paste = body.get(i + 1).is_some_and(is_paste);
                if next_paste {
                    if args[p].is_empty() {
                        out.push(placemarker);
                    } else {
                        if !self.charge(args[p].len(), name.loc) {
                            return out;
                        }
                        out.extend_from_slice(&args[p]);
                    }
                } else {
                    if expanded[p].is_none() {
                        let e = self.expand_isolated(&args[p], mode, depth + 1);
                        if self.aborted {
                            return out;
                        }
                        expanded[p] = Some(e);
                    }
                    let e = expanded[p].as_deref().unwrap_or(&[]);
                    if !self.charge(e.len(), name.loc) {
                        return out;
                    }
                    out.extend_from_slice(e);
                }
            } else {
                out.push(relocate(&bt, i == 0));
            }
            i += 1;
        }
        if has_paste {
            out.retain(|t| t.kind != TKind::Placemarker);
        }
        out
    }

    /// `lhs ## rhs`: the concatenation must be exactly one token. As in
    /// Mesa, a number may only be extended by something starting with a digit.
    fn paste(&mut self, lhs: Tok, rhs: Tok) -> Result<Tok, ()> {
        if lhs.kind == TKind::Placemarker {
            return Ok(rhs);
        }
        if rhs.kind == TKind::Placemarker {
            return Ok(lhs);
        }
        let a = self.int.get(lhs.sym);
        let b = self.int.get(rhs.sym);
        let single = if lhs.kind == TKind::Punct || rhs.kind == TKind::Punct {
            // Only these punctuator pairs combine (as in Mesa).
            let joined = format!("{a}{b}");
            let ok = lhs.kind == TKind::Punct
                && rhs.kind == TKind::Punct
                && matches!(
                    joined.as_str(),
                    "<<" | "<=" | ">>" | ">=" | "==" | "!=" | "&&" | "||"
                );
            if ok {
                lex_single(&joined, &mut self.int)
            } else {
                None
            }
        } else {
            let number_ok = !matches!(lhs.kind, TKind::Int | TKind::Float)
                || b.starts_with(|c: char| c.is_ascii_digit());
            let joined = format!("{a}{b}");
            if number_ok {
                lex_single(&joined, &mut self.int)
            } else {
                None
            }
        };
        match single {
            Some((kind, s)) => Ok(Tok {
                sym: s,
                kind,
                flags: lhs.flags & F_WS,
                loc: lhs.loc,
            }),
            None => {
                let (a, b) = (self.text_of(&lhs), self.text_of(&rhs));
                self.error(lhs.loc, PpError::PasteInvalid(a, b));
                Err(())
            }
        }
    }
}
