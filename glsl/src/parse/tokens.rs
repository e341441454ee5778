//! The token bridge between the preprocessor and the generated LALR parser:
//! the parser's token type [`Tok`], literal parsing, the scoped table of
//! user type names, and [`TokenStream`], the iterator the parser pulls tokens
//! from (keywords through [`super::keywords`], type names vs identifiers,
//! struct-name shadowing, reserved words).
//!
//! Positions handed to the parser encode token indices: token `i` starts at
//! offset `2*i` and ends at `2*i+1`, so the start of any node span divided by two
//! is the index of the node's first token (and thereby its [`SourceLoc`]), and
//! the end of the last symbol (an empty production at the end of input) still
//! names the last token.

use std::cell::RefCell;
use std::fmt;

use super::keywords::{classify_word, Word};
use super::SyntaxError;
use crate::diag::{Diagnostic, Error};
use crate::limits;
use crate::pp::{self, Interner, Sym, TokenKind};
use crate::span::SourceLoc;
use crate::version::Version;

/// A parser token. Words and literals carry no text: the parser reads the
/// spelling of token `i` from the preprocessor's tokens when it needs it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Tok {
    /// An identifier.
    Ident,
    /// The name of a user-declared struct type.
    TypeName,
    /// `int` literal (hex/octal values above `i32::MAX` already wrapped).
    IntConst(i32),
    /// `uint` literal.
    UintConst(u32),
    /// `float` literal.
    FloatConst(f32),
    /// `true` / `false`.
    BoolConst(bool),
    /// A built-in type keyword other than `void` (`vec4`, `sampler2D`, …).
    BuiltinType,
    /// `void`
    Void,
    /// `struct`
    Struct,
    // Qualifiers.
    /// `const`
    Const,
    /// `in`
    In,
    /// `out`
    Out,
    /// `inout`
    InOut,
    /// `centroid`
    Centroid,
    /// `patch`
    Patch,
    /// `sample`
    Sample,
    /// `uniform`
    Uniform,
    /// `buffer`
    Buffer,
    /// `shared`
    Shared,
    /// `coherent`
    Coherent,
    /// `volatile`
    Volatile,
    /// `restrict`
    Restrict,
    /// `readonly`
    ReadOnly,
    /// `writeonly`
    WriteOnly,
    /// `attribute`
    Attribute,
    /// `varying`
    Varying,
    /// `subroutine`
    Subroutine,
    /// `layout`
    Layout,
    /// `precision`
    Precision,
    /// `highp`
    HighPrecision,
    /// `mediump`
    MediumPrecision,
    /// `lowp`
    LowPrecision,
    /// `smooth`
    Smooth,
    /// `flat`
    Flat,
    /// `noperspective`
    NoPerspective,
    /// `invariant`
    Invariant,
    /// `precise`
    Precise,
    // Statements.
    /// `if`
    If,
    /// `else`
    Else,
    /// `switch`
    Switch,
    /// `case`
    Case,
    /// `default`
    Default,
    /// `while`
    While,
    /// `do`
    Do,
    /// `for`
    For,
    /// `continue`
    Continue,
    /// `break`
    Break,
    /// `discard`
    Discard,
    /// `return`
    Return,
    // Punctuation.
    /// `(`
    LeftParen,
    /// `)`
    RightParen,
    /// `[`
    LeftBracket,
    /// `]`
    RightBracket,
    /// `{`
    LeftBrace,
    /// `}`
    RightBrace,
    /// `.`
    Dot,
    /// `,`
    Comma,
    /// `:`
    Colon,
    /// `;`
    Semicolon,
    /// `=`
    Equal,
    /// `+`
    Plus,
    /// `-`
    Dash,
    /// `*`
    Star,
    /// `/`
    Slash,
    /// `%`
    Percent,
    /// `<`
    LeftAngle,
    /// `>`
    RightAngle,
    /// `!`
    Bang,
    /// `~`
    Tilde,
    /// `|`
    VerticalBar,
    /// `^`
    Caret,
    /// `&`
    Ampersand,
    /// `?`
    Question,
    /// `++`
    IncOp,
    /// `--`
    DecOp,
    /// `<<`
    LeftOp,
    /// `>>`
    RightOp,
    /// `<=`
    LeOp,
    /// `>=`
    GeOp,
    /// `==`
    EqOp,
    /// `!=`
    NeOp,
    /// `&&`
    AndOp,
    /// `||`
    OrOp,
    /// `^^`
    XorOp,
    /// `*=`
    MulAssign,
    /// `/=`
    DivAssign,
    /// `%=`
    ModAssign,
    /// `+=`
    AddAssign,
    /// `-=`
    SubAssign,
    /// `<<=`
    LeftAssign,
    /// `>>=`
    RightAssign,
    /// `&=`
    AndAssign,
    /// `^=`
    XorAssign,
    /// `|=`
    OrAssign,
}

/// Lexer position of the start of token `index`.
pub(super) fn start_pos(index: usize) -> u32 {
    (index as u32).saturating_mul(2)
}

/// Lexer position of the end of token `index`.
fn end_pos(index: usize) -> u32 {
    (index as u32).saturating_mul(2).saturating_add(1)
}

/// Index of the token a lexer position points into.
pub(super) fn token_index(offset: u32) -> usize {
    (offset / 2) as usize
}

/// Parser tokens of the punctuators, indexed by their preprocessor symbol
/// (the order of the preprocessor's punctuator table); `#` and `##` never
/// reach the parser.
const PUNCT_TOKENS: [Option<Tok>; 47] = [
    Some(Tok::LeftParen),
    Some(Tok::RightParen),
    Some(Tok::LeftBracket),
    Some(Tok::RightBracket),
    Some(Tok::LeftBrace),
    Some(Tok::RightBrace),
    Some(Tok::Dot),
    Some(Tok::Comma),
    Some(Tok::Colon),
    Some(Tok::Semicolon),
    Some(Tok::Plus),
    Some(Tok::Dash),
    Some(Tok::Star),
    Some(Tok::Slash),
    Some(Tok::Percent),
    Some(Tok::LeftAngle),
    Some(Tok::RightAngle),
    Some(Tok::Equal),
    Some(Tok::Bang),
    Some(Tok::Tilde),
    Some(Tok::Ampersand),
    Some(Tok::VerticalBar),
    Some(Tok::Caret),
    Some(Tok::Question),
    None,
    None,
    Some(Tok::LeftOp),
    Some(Tok::RightOp),
    Some(Tok::LeOp),
    Some(Tok::GeOp),
    Some(Tok::EqOp),
    Some(Tok::NeOp),
    Some(Tok::AndOp),
    Some(Tok::OrOp),
    Some(Tok::XorOp),
    Some(Tok::IncOp),
    Some(Tok::DecOp),
    Some(Tok::AddAssign),
    Some(Tok::SubAssign),
    Some(Tok::MulAssign),
    Some(Tok::DivAssign),
    Some(Tok::ModAssign),
    Some(Tok::AndAssign),
    Some(Tok::OrAssign),
    Some(Tok::XorAssign),
    Some(Tok::LeftAssign),
    Some(Tok::RightAssign),
];

/// Maps a punctuation symbol to its parser token.
fn punct_token(sym: Sym) -> Option<Tok> {
    PUNCT_TOKENS.get(sym.index()).copied().flatten()
}

/// Well-known punctuator symbols (fixed by the preprocessor's table).
mod punct {
    use crate::pp::Sym;
    pub const LPAREN: Sym = Sym(0);
    pub const RPAREN: Sym = Sym(1);
    pub const LBRACKET: Sym = Sym(2);
    pub const RBRACKET: Sym = Sym(3);
    pub const LBRACE: Sym = Sym(4);
    pub const RBRACE: Sym = Sym(5);
    pub const COMMA: Sym = Sym(7);
}

/// True for tokens after which a type name is the name being declared
/// (`float S`, `S S`): built-in type keywords and user type names.
pub(super) fn is_type_token(token: Tok) -> bool {
    matches!(token, Tok::TypeName | Tok::BuiltinType | Tok::Void)
}

// ---------------------------------------------------------------------------
// Literals
// ---------------------------------------------------------------------------

/// A parsed literal plus an optional warning.
pub(super) struct Literal {
    pub token: Tok,
    pub warning: Option<SyntaxError>,
}

/// Parses an integer literal as Mesa does: decimal, octal (`0` prefix) or hex,
/// optional `u`/`U`. Values above `u32::MAX` are out of range (an error from
/// GLSL 1.30 / ES 3.00, a warning before); signed decimal values above
/// 2147483648 and hex/octal values above `i32::MAX` wrap to the i32 bit pattern.
pub(super) fn parse_int(text: &str, version: Version) -> Result<Literal, SyntaxError> {
    let invalid = || SyntaxError::InvalidLiteral {
        text: text.to_owned(),
    };
    let bytes = text.as_bytes();
    let (body, is_uint) = match bytes.last() {
        Some(b'u' | b'U') => (&text[..text.len() - 1], true),
        Some(b'l' | b'L') => {
            return Err(SyntaxError::Unsupported {
                what: "64-bit integer literals",
                text: text.to_owned(),
            })
        }
        _ => (text, false),
    };
    let (digits, radix) =
        if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            (hex, 16)
        } else if body.len() > 1 && body.starts_with('0') {
            (&body[1..], 8)
        } else {
            (body, 10)
        };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return Err(invalid());
    }
    // Saturate like strtoull: anything that does not fit 64 bits is out of range anyway.
    let value = u64::from_str_radix(digits, radix).unwrap_or(u64::MAX);
    if is_uint && !version.at_least(130, 300) {
        return Err(SyntaxError::UnsignedLiteral {
            text: text.to_owned(),
            version,
        });
    }
    let mut warning = None;
    if value > u64::from(u32::MAX) {
        if version.at_least(130, 300) {
            return Err(SyntaxError::LiteralOutOfRange {
                text: text.to_owned(),
            });
        }
        warning = Some(SyntaxError::LiteralOutOfRange {
            text: text.to_owned(),
        });
    } else if radix == 10 && !is_uint && value > 1u64 << 31 {
        warning = Some(SyntaxError::SignedLiteralWraps {
            text: text.to_owned(),
            value: value as u32 as i32,
        });
    }
    let bits = value as u32;
    let token = if is_uint {
        Tok::UintConst(bits)
    } else {
        Tok::IntConst(bits as i32)
    };
    Ok(Literal { token, warning })
}

/// Parses a floating-point literal: `1.`, `.5`, `1e5`, `1.5e-3`, optional
/// `f`/`F` suffix (GLSL 1.20 / ES 3.00; a warning before, as in Mesa). `lf`
/// (double) and `hf` (half) suffixes are unsupported.
pub(super) fn parse_float(text: &str, version: Version) -> Result<Literal, SyntaxError> {
    let lower_end = text.len().saturating_sub(2);
    let suffix2 = text.get(lower_end..).unwrap_or("");
    if suffix2.eq_ignore_ascii_case("lf") && text.len() > 2 {
        return Err(SyntaxError::Unsupported {
            what: "double-precision literals",
            text: text.to_owned(),
        });
    }
    if suffix2.eq_ignore_ascii_case("hf") && text.len() > 2 {
        return Err(SyntaxError::Unsupported {
            what: "half-precision literals",
            text: text.to_owned(),
        });
    }
    let (body, has_f) = match text.as_bytes().last() {
        Some(b'f' | b'F') => (&text[..text.len() - 1], true),
        _ => (text, false),
    };
    if !is_float_body(body) {
        return Err(SyntaxError::InvalidLiteral {
            text: text.to_owned(),
        });
    }
    let value: f32 = body.parse().map_err(|_| SyntaxError::InvalidLiteral {
        text: text.to_owned(),
    })?;
    let warning = (has_f && !version.at_least(120, 300)).then_some(SyntaxError::FloatSuffix);
    Ok(Literal {
        token: Tok::FloatConst(value),
        warning,
    })
}

/// `digits? . digits? exponent?` with at least one digit before the exponent, or
/// `digits exponent`.
fn is_float_body(body: &str) -> bool {
    let bytes = body.as_bytes();
    let mut i = 0;
    let int_digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    i += int_digits;
    let mut frac_digits = 0;
    let has_dot = bytes.get(i) == Some(&b'.');
    if has_dot {
        i += 1;
        frac_digits = bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
        i += frac_digits;
    }
    if int_digits + frac_digits == 0 {
        return false;
    }
    let mut has_exp = false;
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        has_exp = true;
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exp_digits = bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
        if exp_digits == 0 {
            return false;
        }
        i += exp_digits;
    }
    i == bytes.len() && (has_dot || has_exp)
}

// ---------------------------------------------------------------------------
// User type names
// ---------------------------------------------------------------------------

/// The user type names in scope, by `{ }` nesting level. The parser adds a
/// struct's name when it reduces the struct specifier; the token stream opens
/// and closes levels as it hands out braces (the outermost level is never
/// closed, so a stray `}` cannot drop global names). A struct body's braces
/// are a level too, but a struct named inside one belongs to the level the
/// outer struct is declared at (GLSL 1.10 §4.1.8: "a name given to an
/// embedded struct is scoped at the same level as the struct it is embedded
/// in").
#[derive(Debug, Default)]
pub(super) struct TypeNames {
    /// Names with the level they were declared at, levels non-decreasing.
    names: Vec<(Sym, u32)>,
    /// Current level (0 = global).
    level: u32,
    /// The open levels that are struct bodies, innermost last.
    struct_bodies: Vec<u32>,
}

impl TypeNames {
    /// True when `sym` names a type at this point.
    pub fn contains(&self, sym: Sym) -> bool {
        self.names.iter().any(|(s, _)| *s == sym)
    }

    /// Declares a type name at the current level, or below the struct bodies
    /// it is nested in.
    pub fn add(&mut self, sym: Sym) {
        let mut level = self.level;
        for &body in self.struct_bodies.iter().rev() {
            if body != level {
                break;
            }
            level -= 1;
        }
        let at = self
            .names
            .iter()
            .rposition(|(_, l)| *l <= level)
            .map_or(0, |p| p + 1);
        self.names.insert(at, (sym, level));
    }

    fn push_scope(&mut self, struct_body: bool) {
        self.level += 1;
        if struct_body {
            self.struct_bodies.push(self.level);
        }
    }

    fn pop_scope(&mut self) {
        if self.level == 0 {
            return;
        }
        if self.struct_bodies.last() == Some(&self.level) {
            self.struct_bodies.pop();
        }
        while self.names.last().is_some_and(|(_, l)| *l == self.level) {
            self.names.pop();
        }
        self.level -= 1;
    }
}

// ---------------------------------------------------------------------------
// The token stream
// ---------------------------------------------------------------------------

/// An error found while turning preprocessor tokens into parser tokens.
#[derive(Debug)]
pub(crate) struct LexError {
    /// Index of the offending token.
    pub index: usize,
    /// What is wrong.
    pub error: Error,
}

impl fmt::Display for LexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.fmt(f)
    }
}

impl std::error::Error for LexError {}

/// Symbols of the words the stream compares against, when the shader uses them.
struct Words {
    true_: Option<Sym>,
    false_: Option<Sym>,
    layout: Option<Sym>,
    else_: Option<Sym>,
}

/// The iterator the generated parser pulls tokens from.
pub(super) struct TokenStream<'a> {
    tokens: &'a [pp::Token],
    symbols: &'a Interner,
    types: &'a RefCell<TypeNames>,
    next: usize,
    version: Version,
    extensions: &'a [String],
    words: Words,
    /// [`classify_word`] of each symbol, filled on first use.
    classes: Vec<Option<Word>>,
    /// Current `{` nesting.
    brace_depth: u32,
    /// Current `(` nesting.
    paren_depth: u32,
    /// Type names shadowed by a variable declaration, with the brace depth of
    /// the declaration; they are identifiers until that scope closes.
    shadowed: Vec<(Sym, u32)>,
    /// True when the previous token was a type (built-in keyword or type name).
    after_type: bool,
    /// True when the previous token was `.` or `struct` (a name must follow).
    want_name: bool,
    /// Inside `invariant a, b, …;`, which the grammar only accepts with one
    /// name: each `,` is sent as `; invariant`.
    invariant_list: bool,
    /// A synthesized token to send before reading on.
    pending: Option<(usize, Tok)>,
    /// Depth-growth guard, see [`ChainGuard`].
    guard: ChainGuard,
    /// Warnings found so far (literal ranges, float suffixes).
    pub warnings: Vec<Diagnostic>,
}

/// Bounds how deep the syntax tree can grow without brackets, so that even the
/// partial tree the parser drops on a syntax error is shallow enough to drop
/// recursively. Brackets are bounded beforehand; what remains are chains:
/// operators within one statement (`a+a+…`, `- - -x`, `x.x.x`, `x[0][0]`,
/// `if(c) if(c) …`), `else if` chains, and `do` loops nested without braces.
#[derive(Default)]
struct ChainGuard {
    /// Operators and control keywords since the last `;`, `{` or `}`.
    operators: usize,
    /// Per open brace level: `else` tokens in the current if/else chain.
    else_run: Vec<usize>,
    /// Per open brace level: `do` tokens seen.
    do_count: Vec<usize>,
    /// Per open `(`, `[` or `{`: true when its commas separate list items
    /// (call arguments, initializer-list entries) rather than chain operands.
    lists: Vec<bool>,
    /// What the previous token was.
    prev: Prev,
}

/// The previous token, as far as [`ChainGuard`] cares.
#[derive(Clone, Copy, Default, PartialEq)]
enum Prev {
    /// A name or type: a following `(` opens an argument list.
    Callable,
    /// `)` or `]`: a following `(` or `[` extends a postfix chain.
    Closed,
    /// `=`, or `{`/`,` inside an initializer list: a `{` opens a list.
    ListStart,
    /// Anything else.
    #[default]
    Other,
}

/// The limit every chain counter is held to.
/// (Chains a little longer than the depth check accepts still drop safely;
/// the depth check reports them.)
const MAX_CHAIN: usize = 2 * super::MAX_TREE_DEPTH;

impl ChainGuard {
    /// Accounts for `token`; `Err` names the chain that grew too long.
    fn track(&mut self, token: Tok, next_is_else: bool) -> Result<(), &'static str> {
        let level = |v: &mut Vec<usize>| {
            if v.is_empty() {
                v.push(0);
            }
            v.len() - 1
        };
        let prev = std::mem::take(&mut self.prev);
        let in_list = self.lists.last().copied().unwrap_or(false);
        match token {
            Tok::LeftBrace if prev == Prev::ListStart => {
                // An initializer list: its commas separate entries.
                self.lists.push(true);
                self.prev = Prev::ListStart;
            }
            Tok::RightBrace if in_list => {
                self.lists.pop();
                self.prev = Prev::Closed;
            }
            Tok::Semicolon | Tok::LeftBrace | Tok::RightBrace => {
                self.operators = 0;
                match token {
                    Tok::LeftBrace => {
                        self.lists.push(false);
                        self.else_run.push(0);
                        self.do_count.push(0);
                    }
                    Tok::RightBrace => {
                        self.lists.pop();
                        self.else_run.pop();
                        self.do_count.pop();
                    }
                    _ => {}
                }
                if !next_is_else {
                    let l = level(&mut self.else_run);
                    self.else_run[l] = 0;
                }
            }
            Tok::LeftParen => {
                self.lists
                    .push(matches!(prev, Prev::Callable | Prev::Closed));
                if prev == Prev::Closed {
                    self.operators += 1;
                }
            }
            Tok::LeftBracket => {
                self.lists.push(false);
                self.operators += 1;
            }
            Tok::RightParen | Tok::RightBracket => {
                self.lists.pop();
                self.prev = Prev::Closed;
            }
            Tok::Comma => {
                if in_list {
                    // `{ {…}, {…} }`: a `{` after this comma opens a nested list
                    // (inside call arguments a `{` is a syntax error anyway).
                    self.prev = Prev::ListStart;
                } else {
                    self.operators += 1;
                }
            }
            Tok::Equal => {
                self.operators += 1;
                self.prev = Prev::ListStart;
            }
            Tok::Else => {
                self.operators += 1;
                let l = level(&mut self.else_run);
                self.else_run[l] += 1;
                if self.else_run[l] > MAX_CHAIN {
                    return Err("length of an if/else-if chain");
                }
            }
            Tok::Do => {
                self.operators += 1;
                let l = level(&mut self.do_count);
                self.do_count[l] += 1;
                if self.do_count[l] > MAX_CHAIN {
                    return Err("number of do-while loops in one block");
                }
            }
            Tok::Ident | Tok::TypeName => self.prev = Prev::Callable,
            Tok::IntConst(_) | Tok::UintConst(_) | Tok::FloatConst(_) | Tok::BoolConst(_) => {}
            other if !is_type_token(other) => self.operators += 1,
            // Built-in type keywords start constructors: `vec4(`.
            _ => self.prev = Prev::Callable,
        }
        if self.operators > MAX_CHAIN {
            return Err("number of operators in one statement");
        }
        Ok(())
    }
}

impl<'a> TokenStream<'a> {
    /// A stream over `tokens` (spelled in `symbols`), classifying words for
    /// `version`; type names are looked up in `types`.
    pub fn new(
        tokens: &'a [pp::Token],
        symbols: &'a Interner,
        types: &'a RefCell<TypeNames>,
        version: Version,
        extensions: &'a [String],
    ) -> Self {
        TokenStream {
            tokens,
            symbols,
            types,
            next: 0,
            version,
            extensions,
            words: Words {
                true_: symbols.lookup("true"),
                false_: symbols.lookup("false"),
                layout: symbols.lookup("layout"),
                else_: symbols.lookup("else"),
            },
            classes: vec![None; symbols.len()],
            brace_depth: 0,
            paren_depth: 0,
            shadowed: Vec::new(),
            after_type: false,
            want_name: false,
            invariant_list: false,
            pending: None,
            guard: ChainGuard::default(),
            warnings: Vec::new(),
        }
    }

    fn lex_error(&self, index: usize, error: impl Into<Error>) -> LexError {
        LexError {
            index,
            error: error.into(),
        }
    }

    fn loc(&self, index: usize) -> SourceLoc {
        self.tokens.get(index).map(|t| t.loc).unwrap_or_default()
    }

    /// What a word means in this version (cached per symbol).
    fn classify(&mut self, sym: Sym) -> Word {
        if let Some(Some(word)) = self.classes.get(sym.index()) {
            return *word;
        }
        let word = classify_word(self.symbols.get(sym), self.version, self.extensions);
        if let Some(slot) = self.classes.get_mut(sym.index()) {
            *slot = Some(word);
        }
        word
    }

    /// Whether the `{` at `index` opens a struct body: it follows `struct` or
    /// `struct NAME`.
    fn opens_struct_body(&self, index: usize) -> bool {
        let is_struct = |i: usize| {
            self.tokens.get(i).is_some_and(|t| {
                t.kind == TokenKind::Identifier && self.symbols.get(t.sym) == "struct"
            })
        };
        match index {
            0 => false,
            1 => is_struct(0),
            _ => {
                is_struct(index - 1)
                    || (self.tokens[index - 1].kind == TokenKind::Identifier
                        && is_struct(index - 2))
            }
        }
    }

    /// Turns token `index` into a parser token.
    fn convert(&mut self, index: usize) -> Result<Tok, LexError> {
        let tok = self.tokens[index];
        match tok.kind {
            TokenKind::Identifier => self.convert_word(index, tok.sym),
            TokenKind::IntLiteral => {
                let text = self.symbols.get(tok.sym);
                let lit = parse_int(text, self.version).map_err(|e| self.lex_error(index, e))?;
                if let Some(w) = lit.warning {
                    self.warnings.push(Diagnostic::warning(tok.loc, w));
                }
                Ok(lit.token)
            }
            TokenKind::FloatLiteral => {
                let text = self.symbols.get(tok.sym);
                let lit = parse_float(text, self.version).map_err(|e| self.lex_error(index, e))?;
                if let Some(w) = lit.warning {
                    self.warnings.push(Diagnostic::warning(tok.loc, w));
                }
                Ok(lit.token)
            }
            TokenKind::Punct => {
                let token = punct_token(tok.sym).ok_or_else(|| {
                    self.lex_error(
                        index,
                        SyntaxError::InvalidToken {
                            text: self.symbols.get(tok.sym).to_owned(),
                        },
                    )
                })?;
                match token {
                    Tok::LeftParen => self.paren_depth += 1,
                    Tok::RightParen => self.paren_depth = self.paren_depth.saturating_sub(1),
                    Tok::Semicolon if self.paren_depth == 0 => {
                        // Names declared in parentheses whose scope never opened
                        // (a prototype, a brace-less `for` body) end here.
                        let depth = self.brace_depth;
                        self.shadowed.retain(|(_, d)| *d <= depth);
                    }
                    Tok::LeftBrace => {
                        self.brace_depth += 1;
                        let struct_body = self.opens_struct_body(index);
                        self.types.borrow_mut().push_scope(struct_body);
                    }
                    Tok::RightBrace => {
                        self.brace_depth = self.brace_depth.saturating_sub(1);
                        let depth = self.brace_depth;
                        self.shadowed.retain(|(_, d)| *d <= depth);
                        self.types.borrow_mut().pop_scope();
                    }
                    _ => {}
                }
                Ok(token)
            }
        }
    }

    fn convert_word(&mut self, index: usize, sym: Sym) -> Result<Tok, LexError> {
        // Like Mesa, only GLSL ES bounds identifier length.
        if self.version.is_es() && self.symbols.get(sym).len() > limits::MAX_IDENTIFIER_LEN {
            return Err(self.lex_error(
                index,
                Error::Limit {
                    what: "identifier length",
                    limit: limits::MAX_IDENTIFIER_LEN,
                },
            ));
        }
        let some = Some(sym);
        if some == self.words.true_ {
            return Ok(Tok::BoolConst(true));
        }
        if some == self.words.false_ {
            return Ok(Tok::BoolConst(false));
        }
        if some == self.words.layout {
            // A keyword from GLSL 1.40 / ES 3.00; earlier, extensions enable
            // it, and a following `(` can only be a layout qualifier.
            let next_is_paren = self
                .tokens
                .get(index + 1)
                .is_some_and(|t| t.sym == punct::LPAREN);
            if self.version.at_least(140, 300) || next_is_paren {
                return Ok(Tok::Layout);
            }
        }
        match self.classify(sym) {
            Word::Keyword(token) => Ok(token),
            Word::Reserved => Err(self.lex_error(
                index,
                SyntaxError::ReservedWord {
                    word: self.symbols.get(sym).to_owned(),
                },
            )),
            Word::Identifier => Ok(self.identifier_or_type(sym)),
        }
    }

    /// Decides between a user type name and an identifier.
    fn identifier_or_type(&mut self, sym: Sym) -> Tok {
        if self.want_name || self.shadowed.iter().any(|(n, _)| *n == sym) {
            return Tok::Ident;
        }
        if !self.types.borrow().contains(sym) {
            return Tok::Ident;
        }
        if self.after_type {
            // `T S` declares a variable `S` that hides the type in this scope.
            // Inside parentheses (parameters, `for`/`while` declarations) the
            // scope is the body that follows.
            let depth = self.brace_depth + u32::from(self.paren_depth > 0);
            self.shadowed.push((sym, depth));
            return Tok::Ident;
        }
        Tok::TypeName
    }

    /// True when `invariant` at `index` starts `invariant a, b…;` (a name that
    /// is not a type, then a comma).
    fn starts_invariant_list(&mut self, index: usize) -> bool {
        let (Some(&name), Some(comma)) = (self.tokens.get(index + 1), self.tokens.get(index + 2))
        else {
            return false;
        };
        name.kind == TokenKind::Identifier
            && comma.sym == punct::COMMA
            && !self.types.borrow().contains(name.sym)
            && matches!(self.classify(name.sym), Word::Identifier)
    }

    /// True when the word after token `index` is a type (keyword or type name).
    fn type_follows(&mut self, index: usize) -> bool {
        let Some(&next) = self.tokens.get(index + 1) else {
            return false;
        };
        if next.kind != TokenKind::Identifier {
            return false;
        }
        match self.classify(next.sym) {
            Word::Keyword(token) => is_type_token(token) && token != Tok::Struct,
            Word::Reserved => false,
            Word::Identifier => self.types.borrow().contains(next.sym),
        }
    }

    /// Location of the last token (for "unexpected end of file").
    pub fn last_loc(&self) -> SourceLoc {
        self.loc(self.tokens.len().saturating_sub(1))
    }
}

impl Iterator for TokenStream<'_> {
    type Item = Result<(u32, Tok, u32), LexError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some((index, token)) = self.pending.take() {
            return Some(Ok((start_pos(index), token, end_pos(index))));
        }
        let index = self.next;
        if index >= self.tokens.len() {
            return None;
        }
        self.next += 1;
        let mut token = match self.convert(index) {
            Ok(token) => token,
            Err(e) => return Some(Err(e)),
        };
        match token {
            Tok::Invariant => {
                self.invariant_list = self.starts_invariant_list(index);
                if self.type_follows(index) {
                    // The grammar wants another qualifier after `invariant`
                    // (`invariant vec4 x;`): send a `precise` marked as
                    // synthetic by sharing the `invariant` token's position;
                    // the parser drops it.
                    self.pending = Some((index, Tok::Precise));
                }
            }
            Tok::Comma if self.invariant_list => {
                token = Tok::Semicolon;
                self.pending = Some((index, Tok::Invariant));
            }
            Tok::Semicolon => self.invariant_list = false,
            _ => {}
        }
        // Only the end of a statement or block asks whether `else` follows.
        let next_is_else = matches!(token, Tok::Semicolon | Tok::LeftBrace | Tok::RightBrace)
            && self.words.else_.is_some()
            && self
                .tokens
                .get(index + 1)
                .is_some_and(|t| Some(t.sym) == self.words.else_);
        if let Err(what) = self.guard.track(token, next_is_else) {
            return Some(Err(self.lex_error(
                index,
                Error::Limit {
                    what,
                    limit: MAX_CHAIN,
                },
            )));
        }
        self.after_type = is_type_token(token);
        self.want_name = matches!(token, Tok::Dot | Tok::Struct);
        Some(Ok((start_pos(index), token, end_pos(index))))
    }
}

/// Rejects bracket nesting deeper than [`limits::MAX_NESTING_DEPTH`].
pub(super) fn check_nesting(tokens: &[pp::Token]) -> Option<Diagnostic> {
    let mut depth = 0usize;
    for tok in tokens {
        if tok.kind != TokenKind::Punct {
            continue;
        }
        match tok.sym {
            punct::LPAREN | punct::LBRACKET | punct::LBRACE => {
                depth += 1;
                if depth > limits::MAX_NESTING_DEPTH {
                    return Some(Diagnostic::error(
                        tok.loc,
                        Error::Limit {
                            what: "nesting of parentheses, brackets and braces",
                            limit: limits::MAX_NESTING_DEPTH,
                        },
                    ));
                }
            }
            punct::RPAREN | punct::RBRACKET | punct::RBRACE => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}
