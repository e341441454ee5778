//! The preprocessor driver: reads logical lines, tracks conditional groups,
//! implements every directive (`#version`, `#define`/`#undef`, the `#if`
//! family, `#error`, `#pragma`, `#extension`, `#line`, `#include` with the
//! [`super::include`] module) and the predefined macros, and emits the final
//! tokens.

use std::rc::Rc;

use crate::diag::{Diagnostic, Error};
use crate::extensions;
use crate::limits::{MAX_CONDITIONAL_DEPTH, MAX_EXPANDED_TOKENS, MAX_IDENTIFIER_LEN};
use crate::span::SourceLoc;
use crate::version::{Profile, Stage, Version};

use super::expr;
use super::include::{IncludeOptions, IncludeState, EXTENSION_NAME};
use super::lexer::{sym, Interner, LexProblem, Lexer, LineEnd, Sym, TKind, Tok, F_WS};
use super::macros::{Ctx, Macro, Mode, NO_MACRO};
use super::{
    ExtensionBehavior, ExtensionDirective, PpError, PpOptions, PpOutput, PragmaDirective, Token,
    TokenKind,
};

/// State of one conditional group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CondState {
    /// The current branch is being processed.
    Taking,
    /// No branch taken yet; looking for `#elif`/`#else`.
    Waiting,
    /// A branch was taken already, or the whole group is inside a skipped one.
    Done,
}

#[derive(Clone, Copy, Debug)]
struct Cond {
    state: CondState,
    has_else: bool,
    loc: SourceLoc,
}

/// The whole preprocessor state of one run.
pub(super) struct Pp<'s> {
    pub(super) stage: Stage,
    version_override: Option<u16>,
    pub(super) lex: Lexer<'s>,
    pub(super) int: Interner,
    pub(super) macros: Vec<Macro>,
    /// Macro index per symbol (`NO_MACRO` if none).
    pub(super) macro_of: Vec<u32>,
    pub(super) diags: Vec<Diagnostic>,
    out: Vec<Token>,
    extensions: Vec<ExtensionDirective>,
    pragmas: Vec<PragmaDirective>,
    invariant_all: bool,
    cond: Vec<Cond>,
    cond_limit_reported: bool,
    /// A directive line read ahead while collecting macro arguments.
    pub(super) pending: Option<Vec<Tok>>,
    pub(super) version: Version,
    version_resolved: bool,
    /// Something other than comments/whitespace/`#version` was seen.
    seen_content: bool,
    /// Tokens were emitted (for `#extension` placement).
    emitted: bool,
    /// Set after a resource limit was hit: stop producing tokens.
    pub(super) aborted: bool,
    /// Tokens produced by macro substitution so far.
    pub(super) expanded_count: usize,
    /// Reusable token vectors.
    pub(super) pool: Vec<Vec<Tok>>,
    /// Set when a `defined` operator was malformed during `#if` expansion.
    pub(super) if_error: bool,
    /// Line `__LINE__` expands to: as in Mesa, the line of the last token of
    /// the token list being expanded (the current text line, directive or
    /// macro argument).
    pub(super) line_macro_line: u32,
    /// `{`/`}` nesting of the emitted tokens (for `#pragma` placement).
    brace_depth: i64,
    /// The last emitted token's text.
    last_emitted: Option<Sym>,
    /// Added to line numbers of emitted tokens and compiler-side messages
    /// after a `#line` in desktop GLSL before 3.30 (see `set_line`).
    compiler_line_bump: u32,
    /// `#include`: the named strings and the stack of included strings.
    pub(super) include: IncludeState<'s>,
}

impl<'s> Pp<'s> {
    pub(super) fn new(
        source: &'s str,
        options: &PpOptions,
        includes: Option<IncludeOptions<'s>>,
    ) -> Self {
        Pp {
            stage: options.stage,
            version_override: options.version_override,
            lex: Lexer::new(source),
            int: Interner::new(),
            macros: Vec::new(),
            macro_of: Vec::new(),
            diags: Vec::new(),
            out: Vec::with_capacity(source.len() / 4),
            extensions: Vec::new(),
            pragmas: Vec::new(),
            invariant_all: false,
            cond: Vec::new(),
            cond_limit_reported: false,
            pending: None,
            version: Version::DEFAULT,
            version_resolved: false,
            seen_content: false,
            emitted: false,
            aborted: false,
            expanded_count: 0,
            pool: Vec::new(),
            if_error: false,
            line_macro_line: 0,
            brace_depth: 0,
            last_emitted: None,
            compiler_line_bump: 0,
            include: IncludeState {
                options: includes,
                ..IncludeState::default()
            },
        }
    }

    pub(super) fn error(&mut self, loc: SourceLoc, e: impl Into<Error>) {
        self.diags.push(Diagnostic::error(loc, e));
    }

    pub(super) fn warning(&mut self, loc: SourceLoc, e: impl Into<Error>) {
        self.diags.push(Diagnostic::warning(loc, e));
    }

    pub(super) fn take_vec(&mut self) -> Vec<Tok> {
        self.pool.pop().unwrap_or_default()
    }

    pub(super) fn give_vec(&mut self, mut v: Vec<Tok>) {
        if self.pool.len() < 64 && v.capacity() <= 4096 {
            v.clear();
            self.pool.push(v);
        }
    }

    fn skipping(&self) -> bool {
        self.cond
            .last()
            .is_some_and(|c| c.state != CondState::Taking)
    }

    fn drain_lex_problems(&mut self) {
        if self.lex.problems.is_empty() {
            return;
        }
        let problems = std::mem::take(&mut self.lex.problems);
        for p in problems {
            match p {
                LexProblem::UnterminatedComment(loc) => {
                    self.error(loc, PpError::UnterminatedComment)
                }
            }
        }
    }

    /// Runs the preprocessor over the whole input.
    pub(super) fn run(mut self) -> PpOutput {
        let mut line = Vec::new();
        while !self.aborted {
            let end = if let Some(p) = self.pending.take() {
                line = p;
                LineEnd::Line
            } else if self.skipping() {
                // Only directives matter inside a skipped group.
                self.lex.next_line_skipping(&mut self.int, &mut line)
            } else {
                self.lex.next_line(&mut self.int, &mut line)
            };
            if end == LineEnd::Eof {
                // The end of an included string resumes its includer.
                if self.leave_include() {
                    continue;
                }
                break;
            }
            self.drain_lex_problems();
            if line.is_empty() {
                continue;
            }
            if line[0].is(sym::HASH) {
                self.directive(&line);
            } else if !self.skipping() {
                let next = self.take_vec();
                self.text_line(std::mem::replace(&mut line, next));
            }
        }
        if !self.aborted {
            if let Some(c) = self.cond.last() {
                let loc = c.loc;
                self.error(loc, PpError::UnterminatedIf);
            }
        }
        self.resolve_version();
        PpOutput {
            tokens: self.out,
            symbols: self.int,
            version: self.version,
            extensions: self.extensions,
            pragmas: self.pragmas,
            invariant_all: self.invariant_all,
            diagnostics: self.diags,
        }
    }

    /// Reads the next source line for a macro invocation that continues past
    /// the end of the current line. Directive lines end the search (they are
    /// kept for the main loop).
    pub(super) fn fetch_text_line(&mut self) -> Option<Vec<Tok>> {
        if self.pending.is_some() || self.aborted {
            return None;
        }
        let mut v = self.take_vec();
        loop {
            if self.lex.next_line(&mut self.int, &mut v) == LineEnd::Eof {
                self.give_vec(v);
                return None;
            }
            self.drain_lex_problems();
            if v.is_empty() {
                continue;
            }
            if v[0].is(sym::HASH) {
                self.pending = Some(v);
                return None;
            }
            if let Some(last) = v.last() {
                self.line_macro_line = last.loc.line;
            }
            return Some(v);
        }
    }

    /// Macro index of `s`, if it is defined.
    #[inline]
    pub(super) fn macro_index(&self, s: Sym) -> Option<usize> {
        match self.macro_of.get(s.0 as usize) {
            Some(&m) if m != NO_MACRO => Some(m as usize),
            _ => None,
        }
    }

    /// `defined`/`#ifdef`: as in Mesa, only the macro table counts, so the
    /// dynamic `__LINE__`/`__FILE__` are not "defined".
    pub(super) fn is_defined(&self, s: Sym) -> bool {
        self.macro_index(s).is_some()
    }

    /// One line of program text.
    fn text_line(&mut self, line: Vec<Tok>) {
        self.resolve_version();
        self.seen_content = true;
        let needs_expansion = line.iter().any(|t| {
            t.kind == TKind::Ident
                && (t.sym == sym::LINE || t.sym == sym::FILE || self.macro_index(t.sym).is_some())
        });
        if !needs_expansion {
            self.emit(&line);
            self.give_vec(line);
            return;
        }
        if let Some(last) = line.last() {
            self.line_macro_line = last.loc.line;
        }
        let mut stack = vec![Ctx {
            toks: line,
            pos: 0,
            mac: NO_MACRO,
        }];
        let mut out = self.take_vec();
        self.expand(&mut stack, Mode::Source, &mut out, 0);
        if !self.aborted {
            self.emit(&out);
        }
        self.give_vec(out);
    }

    /// Appends tokens to the output, reporting tokens GLSL has no use for.
    fn emit(&mut self, toks: &[Tok]) {
        if toks.is_empty() {
            return;
        }
        self.emitted = true;
        if self.out.len() + toks.len() > MAX_EXPANDED_TOKENS {
            let loc = toks[0].loc;
            self.error(
                loc,
                Error::Limit {
                    what: "number of preprocessed tokens",
                    limit: MAX_EXPANDED_TOKENS,
                },
            );
            self.aborted = true;
            return;
        }
        for t in toks {
            let loc = self.compiler_loc(t.loc);
            let kind = match t.kind {
                TKind::Ident => {
                    let text = self.int.get(t.sym);
                    if text.len() > self.identifier_limit() {
                        let name: String = text.chars().take(32).collect();
                        self.error(
                            loc,
                            PpError::IdentifierTooLong {
                                name: format!("{name}..."),
                                limit: self.identifier_limit(),
                            },
                        );
                    }
                    TokenKind::Identifier
                }
                TKind::Int => TokenKind::IntLiteral,
                TKind::Float => TokenKind::FloatLiteral,
                TKind::Punct => {
                    if t.sym == sym::LBRACE {
                        self.brace_depth += 1;
                    } else if t.sym == sym::RBRACE {
                        self.brace_depth -= 1;
                    }
                    if t.sym == sym::HASH || t.sym == sym::PASTE {
                        let text = self.int.get(t.sym).to_owned();
                        self.error(loc, PpError::StrayHash(text));
                        continue;
                    }
                    TokenKind::Punct
                }
                TKind::Other => {
                    let text = self.int.get(t.sym);
                    let shown: String = text
                        .chars()
                        .map(|c| {
                            if c == '\0' {
                                "\\0".to_owned()
                            } else if c.is_control() {
                                format!("\\u{{{:x}}}", c as u32)
                            } else {
                                c.to_string()
                            }
                        })
                        .collect();
                    self.error(loc, PpError::IllegalCharacter(shown));
                    continue;
                }
                TKind::Param | TKind::Placemarker => continue,
            };
            self.out.push(Token {
                kind,
                sym: t.sym,
                loc,
            });
        }
    }

    /// Longest identifier accepted. GLSL ES fixes it at 1024 characters (the
    /// limits constant); desktop GLSL has no limit (piglit checks a
    /// 17000-character identifier passes), so only absurd lengths are refused.
    fn identifier_limit(&self) -> usize {
        if self.version.is_es() {
            MAX_IDENTIFIER_LEN
        } else {
            MAX_IDENTIFIER_LEN * 64
        }
    }

    /// `loc` as Mesa's compiler (rather than glcpp) numbers lines.
    pub(super) fn compiler_loc(&self, loc: SourceLoc) -> SourceLoc {
        SourceLoc {
            line: loc.line.saturating_add(self.compiler_line_bump),
            ..loc
        }
    }

    /// Reconstructs directive text from tokens (single spaces where the
    /// source had whitespace).
    fn join_text(&self, toks: &[Tok]) -> String {
        let mut s = String::new();
        for (i, t) in toks.iter().enumerate() {
            if i > 0 && t.ws() {
                s.push(' ');
            }
            if t.kind == TKind::Param {
                continue;
            }
            s.push_str(self.int.get(t.sym));
        }
        s
    }

    /// Dispatches one directive line (`line[0]` is `#`).
    fn directive(&mut self, line: &[Tok]) {
        let Some(name_tok) = line.get(1) else {
            // The null directive (it still ends the `#version` window).
            if !self.skipping() {
                self.resolve_version();
                self.seen_content = true;
            }
            return;
        };
        const NAMES: &[&str] = &[
            "if",
            "ifdef",
            "ifndef",
            "elif",
            "else",
            "endif",
            "version",
            "define",
            "undef",
            "error",
            "pragma",
            "extension",
            "line",
            "include",
        ];
        let name: &'static str = if name_tok.kind == TKind::Ident {
            let text = self.int.get(name_tok.sym);
            NAMES.iter().copied().find(|n| *n == text).unwrap_or("")
        } else {
            ""
        };
        let skipping = self.skipping();
        match name {
            "if" | "ifdef" | "ifndef" => {
                if !skipping {
                    self.resolve_version();
                    self.seen_content = true;
                }
                self.open_group(name, line, skipping);
                return;
            }
            "elif" | "else" | "endif" => {
                self.continue_group(name, line);
                return;
            }
            _ => {}
        }
        if skipping {
            return;
        }
        if name == "version" {
            self.version_directive(line);
            return;
        }
        self.resolve_version();
        self.seen_content = true;
        match name {
            "define" => self.define(line),
            "undef" => self.undef(line),
            "error" => {
                let text = self.join_text(&line[2..]);
                self.error(line[0].loc, PpError::ErrorDirective(text));
            }
            "pragma" => self.pragma(line),
            "extension" => self.extension(line),
            "line" => self.line_directive(line),
            "include" => self.include_directive(line),
            _ => self.error(line[0].loc, PpError::IllegalNonDirective),
        }
    }

    // ----- conditionals -------------------------------------------------

    fn push_cond(&mut self, state: CondState, loc: SourceLoc) {
        if self.cond.len() >= MAX_CONDITIONAL_DEPTH && !self.cond_limit_reported {
            self.cond_limit_reported = true;
            self.error(
                loc,
                Error::Limit {
                    what: "#if nesting depth",
                    limit: MAX_CONDITIONAL_DEPTH,
                },
            );
        }
        self.cond.push(Cond {
            state,
            has_else: false,
            loc,
        });
    }

    fn open_group(&mut self, name: &str, line: &[Tok], skipping: bool) {
        let loc = line[0].loc;
        if skipping {
            self.push_cond(CondState::Done, loc);
            return;
        }
        let mut loc = loc;
        let taken = match name {
            "if" => {
                if line.len() <= 2 {
                    self.error(loc, PpError::NoExpression("if"));
                    false
                } else {
                    self.eval_condition(&line[2..], loc)
                }
            }
            _ => {
                let dname = if name == "ifdef" { "ifdef" } else { "ifndef" };
                match line.get(2) {
                    None => {
                        self.error(loc, PpError::MissingMacroName(dname));
                        false
                    }
                    Some(t) if t.kind != TKind::Ident => {
                        self.error(t.loc, PpError::MacroNameNotIdentifier);
                        false
                    }
                    Some(t) => {
                        if let Some(extra) = line.get(3) {
                            self.error(extra.loc, PpError::ExtraTokens);
                        }
                        if name == "ifndef" {
                            // Mesa locates an `#ifndef` group at its name.
                            loc = t.loc;
                        }
                        self.is_defined(t.sym) == (name == "ifdef")
                    }
                }
            }
        };
        self.push_cond(
            if taken {
                CondState::Taking
            } else {
                CondState::Waiting
            },
            loc,
        );
    }

    fn continue_group(&mut self, name: &str, line: &[Tok]) {
        let loc = line[0].loc;
        let kw: &'static str = match name {
            "elif" => "elif",
            "else" => "else",
            _ => "endif",
        };
        // Groups opened by an including string cannot be closed here.
        let top = match self.cond.last().copied() {
            Some(top) if self.cond.len() > self.include.cond_base => top,
            _ => {
                self.error(loc, PpError::WithoutIf(kw));
                return;
            }
        };
        match kw {
            "endif" => {
                if let Some(extra) = line.get(2) {
                    if !self.parent_skipping() {
                        self.error(extra.loc, PpError::ExtraTokens);
                    }
                }
                self.cond.pop();
            }
            "else" => {
                if top.has_else {
                    self.error(loc, PpError::MultipleElse);
                    return;
                }
                if let Some(extra) = line.get(2) {
                    if !self.parent_skipping() {
                        self.error(extra.loc, PpError::ExtraTokens);
                    }
                }
                let state = match top.state {
                    CondState::Waiting => CondState::Taking,
                    _ => CondState::Done,
                };
                if let Some(c) = self.cond.last_mut() {
                    c.state = state;
                    c.has_else = true;
                }
            }
            _ => {
                let state = if top.state == CondState::Waiting {
                    if top.has_else {
                        self.error(loc, PpError::ElifAfterElse);
                        return;
                    }
                    if line.len() <= 2 {
                        self.error(loc, PpError::NoExpression("elif"));
                        CondState::Waiting
                    } else if self.eval_condition(&line[2..], loc) {
                        CondState::Taking
                    } else {
                        CondState::Waiting
                    }
                } else if top.has_else {
                    self.error(loc, PpError::ElifAfterElse);
                    return;
                } else {
                    if line.len() <= 2 && top.state == CondState::Taking {
                        self.warning(loc, PpError::ElifNoExpressionIgnored);
                    }
                    CondState::Done
                };
                if let Some(c) = self.cond.last_mut() {
                    c.state = state;
                }
            }
        }
    }

    /// True when the group enclosing the innermost one is being skipped.
    fn parent_skipping(&self) -> bool {
        let n = self.cond.len();
        n >= 2 && self.cond[n - 2].state != CondState::Taking
    }

    /// Expands and evaluates an `#if`/`#elif` expression.
    fn eval_condition(&mut self, toks: &[Tok], loc: SourceLoc) -> bool {
        self.if_error = false;
        if let Some(last) = toks.last() {
            self.line_macro_line = last.loc.line;
        }
        let mut input = self.take_vec();
        input.extend_from_slice(toks);
        let mut stack = vec![Ctx {
            toks: input,
            pos: 0,
            mac: NO_MACRO,
        }];
        let mut expanded = self.take_vec();
        self.expand(&mut stack, Mode::If, &mut expanded, 0);
        if self.if_error || self.aborted {
            self.give_vec(expanded);
            return false;
        }
        let result = expr::evaluate(&expanded, &self.int, loc);
        self.give_vec(expanded);
        match result {
            Ok(v) => {
                if self.version.is_es() {
                    if let Some(s) = v.undefined {
                        let name = self.int.get(s).to_owned();
                        self.error(loc, PpError::UndefinedMacroInEs(name));
                    }
                }
                v.value != 0
            }
            Err((eloc, e)) => {
                self.error(eloc, e);
                false
            }
        }
    }

    // ----- #version -------------------------------------------------------

    fn version_directive(&mut self, line: &[Tok]) {
        let loc = line[0].loc;
        if self.version_resolved || self.seen_content {
            self.error(loc, PpError::VersionNotFirst);
            return;
        }
        let number = match line.get(2) {
            Some(t) if t.kind == TKind::Int => {
                let text = self.int.get(t.sym);
                if text.len() > 1 && text.starts_with('0') {
                    let text = text.to_owned();
                    self.error(t.loc, PpError::VersionNotDecimal(text));
                    Some(0)
                } else {
                    // Decimal, saturating (huge numbers are just unsupported).
                    let digits = text.trim_end_matches(['u', 'U']);
                    digits.bytes().all(|b| b.is_ascii_digit()).then(|| {
                        digits.bytes().fold(0i64, |v, b| {
                            v.saturating_mul(10).saturating_add((b - b'0') as i64)
                        })
                    })
                }
            }
            _ => None,
        };
        let Some(number) = number else {
            let eloc = line.get(2).map_or(loc, |t| t.loc);
            self.error(eloc, PpError::VersionSyntax);
            self.resolve_version();
            return;
        };
        let num_loc = line[2].loc;
        let number = number.max(0) as u64;
        let mut es = number == 100;
        let mut compat = false;
        if let Some(p) = line.get(3) {
            let word = self.int.get(p.sym).to_owned();
            if p.kind != TKind::Ident {
                self.error(p.loc, PpError::VersionIllegalText);
            } else if word == "es" {
                if number == 100 {
                    self.error(p.loc, PpError::VersionEs100);
                }
                es = true;
            } else if number >= 150 {
                match word.as_str() {
                    "core" => {}
                    "compatibility" => compat = true,
                    _ => self.error(p.loc, PpError::VersionBadProfile(word)),
                }
            } else {
                self.error(p.loc, PpError::VersionIllegalText);
            }
            if let Some(extra) = line.get(4) {
                self.error(extra.loc, PpError::ExtraTokens);
            }
        }
        let version = if let Some(forced) = self.version_override {
            self.forced_version(forced, compat, num_loc)
        } else {
            self.checked_version(number, es, compat, num_loc)
        };
        self.set_version(version);
    }

    /// The version `number` names, or an error and a fallback.
    fn checked_version(&mut self, number: u64, es: bool, compat: bool, loc: SourceLoc) -> Version {
        let supported = u16::try_from(number).is_ok_and(|n| Version::is_supported(n, es));
        if !supported {
            let requested = format!(
                "{} {}.{:02}",
                if es { "GLSL ES" } else { "GLSL" },
                number / 100,
                number % 100
            );
            self.error(
                loc,
                PpError::VersionUnsupported {
                    requested,
                    supported: Version::supported_list(),
                },
            );
            return if es {
                Version::es(100)
            } else {
                Version::DEFAULT
            };
        }
        let n = number as u16;
        if es {
            Version::es(n)
        } else if compat && n >= 150 {
            Version {
                number: n,
                profile: Profile::Compatibility,
            }
        } else {
            Version::desktop(n)
        }
    }

    fn forced_version(&mut self, forced: u16, compat: bool, loc: SourceLoc) -> Version {
        let es = matches!(forced, 100 | 300 | 310);
        self.checked_version(forced as u64, es, compat, loc)
    }

    /// Fixes the version when the first non-`#version` line is seen.
    pub(super) fn resolve_version(&mut self) {
        if self.version_resolved {
            return;
        }
        let version = match self.version_override {
            Some(forced) => self.forced_version(forced, false, SourceLoc::new(1, 1)),
            None => Version::DEFAULT,
        };
        self.set_version(version);
    }

    fn set_version(&mut self, v: Version) {
        self.version_resolved = true;
        self.version = v;
        let number = self.int.intern(&v.number.to_string());
        self.define_builtin("__VERSION__", int_body(number));
        // Every other predefined macro is `1`: one shared replacement list.
        // Their names are seeded in the interner, so these are lookups.
        let one = int_body(self.int.intern("1"));
        if v.is_es() {
            self.define_builtin("GL_ES", one.clone());
        } else if v.number >= 150 {
            let profile = if v.profile == Profile::Compatibility {
                "GL_compatibility_profile"
            } else {
                "GL_core_profile"
            };
            self.define_builtin(profile, one.clone());
        }
        if v.is_es() || v.number >= 130 {
            self.define_builtin("GL_FRAGMENT_PRECISION_HIGH", one.clone());
        }
        for ext in extensions::supported(v, self.stage) {
            self.define_builtin(ext, one.clone());
        }
    }

    fn define_builtin(&mut self, name: &str, body: Rc<[Tok]>) {
        let m = Macro {
            name: self.int.intern(name),
            function: false,
            params: Vec::new(),
            body,
            builtin: true,
            active: 0,
        };
        self.install_macro(m);
    }

    // ----- #extension, #pragma, #line --------------------------------------

    fn extension(&mut self, line: &[Tok]) {
        let loc = self.compiler_loc(line[0].loc);
        let (name_tok, behavior_tok) = match line {
            [_, _, n, c, b]
                if n.kind == TKind::Ident && c.is(sym::COLON) && b.kind == TKind::Ident =>
            {
                (*n, *b)
            }
            _ => {
                let eloc = line.get(2).map_or(loc, |t| t.loc);
                self.error(eloc, PpError::ExtensionSyntax);
                return;
            }
        };
        let name = self.int.get(name_tok.sym).to_owned();
        let behavior = match self.int.get(behavior_tok.sym) {
            "require" => ExtensionBehavior::Require,
            "enable" => ExtensionBehavior::Enable,
            "warn" => ExtensionBehavior::Warn,
            "disable" => ExtensionBehavior::Disable,
            other => {
                let other = other.to_owned();
                self.error(
                    self.compiler_loc(behavior_tok.loc),
                    PpError::ExtensionBehavior(other),
                );
                return;
            }
        };
        if self.emitted {
            self.error(loc, PpError::ExtensionMidShader);
        }
        if name == "all" {
            match behavior {
                ExtensionBehavior::Require | ExtensionBehavior::Enable => {
                    self.error(
                        self.compiler_loc(name_tok.loc),
                        PpError::ExtensionAll(behavior.name()),
                    );
                    return;
                }
                _ => {}
            }
        } else if !extensions::is_supported(&name, self.version, self.stage) {
            let e = PpError::ExtensionUnsupported {
                name: name.clone(),
                stage: self.stage.name(),
            };
            if behavior == ExtensionBehavior::Require {
                self.error(self.compiler_loc(name_tok.loc), e);
            } else {
                self.warning(self.compiler_loc(name_tok.loc), e);
            }
        }
        // Mesa's `set_flags`: `enable`, `require` and `warn` enable an
        // extension, `all : warn` enables every one.
        let enables = behavior != ExtensionBehavior::Disable;
        if name == EXTENSION_NAME && extensions::is_supported(&name, self.version, self.stage)
            || name == "all"
        {
            self.include.enabled = enables;
        }
        self.extensions.push(ExtensionDirective {
            name,
            behavior,
            loc,
        });
    }

    fn pragma(&mut self, line: &[Tok]) {
        let loc = self.compiler_loc(line[0].loc);
        let text = self.join_text(&line[2..]);
        let words: Vec<&str> = line[2..].iter().map(|t| self.int.get(t.sym)).collect();
        let invariant_all = words == ["STDGL", "invariant", "(", "all", ")"];
        // The pragmas Mesa's compiler turns into grammar tokens; they are only
        // allowed between external declarations.
        let recognized = invariant_all
            || matches!(
                words.as_slice(),
                ["debug" | "optimize" | "warning", "(", "on" | "off", ")"]
            );
        let between_declarations = self.brace_depth == 0
            && self
                .last_emitted
                .is_none_or(|s| self.int.get(s) == ";" || self.int.get(s) == "}");
        if recognized && !between_declarations {
            self.error(loc, PpError::PragmaPlacement(text.clone()));
        }
        if !text.is_empty() {
            self.pragmas.push(PragmaDirective { text, loc });
        }
        if !invariant_all {
            return;
        }
        let v = self.version;
        if v.at_least(120, 300) && self.stage == Stage::Fragment {
            self.error(loc, PpError::InvariantAllInFragment);
        } else if !v.at_least(120, 100) {
            self.warning(loc, PpError::InvariantAllUnsupported(format!("GLSL {v}")));
        } else {
            self.invariant_all = true;
        }
    }

    fn line_directive(&mut self, line: &[Tok]) {
        let loc = line[0].loc;
        if let Some(last) = line.last() {
            self.line_macro_line = last.loc.line;
        }
        let mut input = self.take_vec();
        input.extend_from_slice(&line[2..]);
        let mut stack = vec![Ctx {
            toks: input,
            pos: 0,
            mac: NO_MACRO,
        }];
        let mut expanded = self.take_vec();
        self.expand(&mut stack, Mode::List, &mut expanded, 0);
        let ints: Option<Vec<i64>> = expanded
            .iter()
            .map(|t| {
                if t.kind == TKind::Int {
                    expr::parse_int(self.int.get(t.sym))
                } else {
                    None
                }
            })
            .collect();
        // `#line N "path"` (GL_ARB_shading_language_include): the path is
        // accepted, and only the line number is used (rgl's locations have no
        // paths; Mesa prints the path in compiler messages).
        let path_form = match expanded.as_slice() {
            [n, p] if n.kind == TKind::Int && p.kind == TKind::Other => {
                let text = self.int.get(p.sym);
                (text.len() >= 2 && text.starts_with('"') && text.ends_with('"'))
                    .then(|| expr::parse_int(self.int.get(n.sym)))
                    .flatten()
            }
            _ => None,
        };
        self.give_vec(expanded);
        if let Some(l) = path_form {
            if !self.include.enabled {
                let at = SourceLoc {
                    column: 1,
                    ..self.compiler_loc(loc)
                };
                self.error(at, PpError::LinePathNotEnabled);
            }
            self.set_line(l, None);
            return;
        }
        match ints.as_deref() {
            Some([l]) => self.set_line(*l, None),
            Some([l, s]) => self.set_line(*l, Some(*s)),
            _ => self.error(line.get(2).map_or(loc, |t| t.loc), PpError::LineSyntax),
        }
    }

    fn set_line(&mut self, line: i64, source: Option<i64>) {
        // The line after the directive gets number `line` (glcpp's view, used
        // by `__LINE__` and preprocessor messages). Mesa's compiler proper
        // follows the pre-3.30 desktop specs there: the next line is `line + 1`.
        self.lex.line_delta = line - self.lex.physical_line() as i64;
        let v = self.version;
        self.compiler_line_bump = u32::from(!v.is_es() && v.number < 330);
        if let Some(s) = source {
            self.lex.source = s.clamp(0, u32::MAX as i64) as u32;
        }
    }

    /// Number of open conditional groups.
    pub(super) fn cond_len(&self) -> usize {
        self.cond.len()
    }

    /// Reports the innermost conditional group above `base` still open (at the
    /// end of an included string) and closes every group above `base`.
    pub(super) fn close_conditionals_above(&mut self, base: usize) {
        if self.cond.len() > base && !self.aborted {
            let loc = self.cond[self.cond.len() - 1].loc;
            self.error(loc, PpError::UnterminatedIf);
        }
        self.cond.truncate(base);
    }

    /// The `#line` adjustment of compiler-side locations, reset for a new
    /// string.
    pub(super) fn take_compiler_line_bump(&mut self) -> u32 {
        std::mem::take(&mut self.compiler_line_bump)
    }

    /// Restores the `#line` adjustment of a resumed string.
    pub(super) fn restore_compiler_line_bump(&mut self, bump: u32) {
        self.compiler_line_bump = bump;
    }

    /// Registers a macro under its name (replacing any previous one).
    pub(super) fn install_macro(&mut self, m: Macro) {
        let idx = m.name.0 as usize;
        if self.macro_of.len() < self.int.len() {
            self.macro_of.resize(self.int.len(), NO_MACRO);
        }
        match self.macro_of[idx] {
            NO_MACRO => {
                self.macro_of[idx] = self.macros.len() as u32;
                self.macros.push(m);
            }
            slot => self.macros[slot as usize] = m,
        }
    }

    /// Removes a macro definition.
    pub(super) fn remove_macro(&mut self, name: Sym) {
        if let Some(slot) = self.macro_of.get_mut(name.0 as usize) {
            *slot = NO_MACRO;
        }
    }

    /// Token text, for messages.
    pub(super) fn text_of(&self, t: &Tok) -> String {
        self.int.get(t.sym).to_owned()
    }

    /// Builds an integer token.
    pub(super) fn int_token(&mut self, value: u64, loc: SourceLoc, flags: u8) -> Tok {
        let s = self.int.intern(&value.to_string());
        Tok {
            sym: s,
            kind: TKind::Int,
            flags: flags & F_WS,
            loc,
        }
    }
}

/// The replacement list of a predefined macro: the one integer token `value`.
fn int_body(value: Sym) -> Rc<[Tok]> {
    Rc::from(
        [Tok {
            sym: value,
            kind: TKind::Int,
            flags: 0,
            loc: SourceLoc::default(),
        }]
        .as_slice(),
    )
}
