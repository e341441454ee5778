//! The token bridge between the preprocessor and glsl-lang's LALR parser:
//! words classified through the keyword table ([`super::keywords`]), literal
//! parsing, and [`TokenStream`], the iterator the generated parser pulls tokens
//! from.
//!
//! Positions handed to the parser encode token indices: token `i` starts at
//! offset `2*i` and ends at `2*i+1`, so the start of any node span divided by two
//! is the index of the node's first token (and thereby its [`SourceLoc`]).

use std::fmt;

use glsl_lang::ast::{FileId, SmolStr, TextSize};
use glsl_lang::lexer::{HasLexerError, ParseContext, Token};
use lang_util::position::LexerPosition;

use super::keywords::{classify_word, Word};
use super::SyntaxError;
use crate::diag::{Diagnostic, Error};
use crate::limits;
use crate::pp::{self, TokenKind};
use crate::span::SourceLoc;
use crate::version::Version;

/// The file id every position carries (one token stream per parse).
pub(super) const FILE_ID: u32 = 0;

/// Lexer position of the start of token `index`.
pub(super) fn start_pos(index: usize) -> LexerPosition {
    LexerPosition::new(
        FileId::new(FILE_ID),
        TextSize::from((index as u32).saturating_mul(2)),
    )
}

/// Lexer position of the end of token `index`.
fn end_pos(index: usize) -> LexerPosition {
    LexerPosition::new(
        FileId::new(FILE_ID),
        TextSize::from((index as u32).saturating_mul(2).saturating_add(1)),
    )
}

/// Index of the token a lexer position points into.
pub(super) fn token_index(offset: TextSize) -> usize {
    (u32::from(offset) / 2) as usize
}

/// Maps a punctuation spelling to its parser token.
fn punct_token(text: &str) -> Option<Token> {
    Some(match text {
        "(" => Token::LeftParen,
        ")" => Token::RightParen,
        "[" => Token::LeftBracket,
        "]" => Token::RightBracket,
        "{" => Token::LeftBrace,
        "}" => Token::RightBrace,
        "." => Token::Dot,
        "," => Token::Comma,
        ":" => Token::Colon,
        ";" => Token::Semicolon,
        "=" => Token::Equal,
        "+" => Token::Plus,
        "-" => Token::Dash,
        "*" => Token::Star,
        "/" => Token::Slash,
        "%" => Token::Percent,
        "<" => Token::LeftAngle,
        ">" => Token::RightAngle,
        "!" => Token::Bang,
        "~" => Token::Tilde,
        "|" => Token::VerticalBar,
        "^" => Token::Caret,
        "&" => Token::Ampersand,
        "?" => Token::Question,
        "++" => Token::IncOp,
        "--" => Token::DecOp,
        "<<" => Token::LeftOp,
        ">>" => Token::RightOp,
        "<=" => Token::LeOp,
        ">=" => Token::GeOp,
        "==" => Token::EqOp,
        "!=" => Token::NeOp,
        "&&" => Token::AndOp,
        "||" => Token::OrOp,
        "^^" => Token::XorOp,
        "*=" => Token::MulAssign,
        "/=" => Token::DivAssign,
        "%=" => Token::ModAssign,
        "+=" => Token::AddAssign,
        "-=" => Token::SubAssign,
        "<<=" => Token::LeftAssign,
        ">>=" => Token::RightAssign,
        "&=" => Token::AndAssign,
        "^=" => Token::XorAssign,
        "|=" => Token::OrAssign,
        _ => return None,
    })
}

/// True for tokens after which a type name is the name being declared
/// (`float S`, `S S`): built-in type keywords and user type names.
fn is_type_token(token: &Token) -> bool {
    !matches!(
        token,
        Token::Identifier(_)
            | Token::IntConstant(_)
            | Token::UIntConstant(_)
            | Token::BoolConstant(_)
            | Token::FloatConstant(_)
            | Token::DoubleConstant(_)
            | Token::LeftParen
            | Token::RightParen
            | Token::LeftBracket
            | Token::RightBracket
            | Token::LeftBrace
            | Token::RightBrace
            | Token::Dot
            | Token::Comma
            | Token::Colon
            | Token::Semicolon
            | Token::Equal
            | Token::Plus
            | Token::Dash
            | Token::Star
            | Token::Slash
            | Token::Percent
            | Token::LeftAngle
            | Token::RightAngle
            | Token::Bang
            | Token::Tilde
            | Token::VerticalBar
            | Token::Caret
            | Token::Ampersand
            | Token::Question
            | Token::IncOp
            | Token::DecOp
            | Token::LeftOp
            | Token::RightOp
            | Token::LeOp
            | Token::GeOp
            | Token::EqOp
            | Token::NeOp
            | Token::AndOp
            | Token::OrOp
            | Token::XorOp
            | Token::MulAssign
            | Token::DivAssign
            | Token::ModAssign
            | Token::AddAssign
            | Token::SubAssign
            | Token::LeftAssign
            | Token::RightAssign
            | Token::AndAssign
            | Token::XorAssign
            | Token::OrAssign
            | Token::Const
            | Token::In
            | Token::Out
            | Token::InOut
            | Token::Uniform
            | Token::Attribute
            | Token::Varying
            | Token::Centroid
            | Token::Invariant
            | Token::Flat
            | Token::Smooth
            | Token::NoPerspective
            | Token::Patch
            | Token::Sample
            | Token::Buffer
            | Token::Shared
            | Token::Coherent
            | Token::Volatile
            | Token::Restrict
            | Token::ReadOnly
            | Token::WriteOnly
            | Token::Precise
            | Token::Subroutine
            | Token::Layout
            | Token::Precision
            | Token::HighPrecision
            | Token::MediumPrecision
            | Token::LowPrecision
            | Token::Break
            | Token::Continue
            | Token::Do
            | Token::For
            | Token::While
            | Token::Switch
            | Token::Case
            | Token::Default
            | Token::If
            | Token::Else
            | Token::Discard
            | Token::Return
            | Token::Struct
    )
}

// ---------------------------------------------------------------------------
// Literals
// ---------------------------------------------------------------------------

/// A parsed literal plus an optional warning.
pub(super) struct Literal {
    pub token: Token,
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
        Token::UIntConstant(bits)
    } else {
        Token::IntConstant(bits as i32)
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
        token: Token::FloatConstant(value),
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
// The token stream
// ---------------------------------------------------------------------------

/// An error found while turning preprocessor tokens into parser tokens.
#[derive(Debug)]
pub(super) struct LexError {
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

impl lang_util::error::LexicalError for LexError {
    fn location(&self) -> (LexerPosition, TextSize) {
        (start_pos(self.index), TextSize::from(1))
    }
}

/// The iterator glsl-lang's parser pulls tokens from.
pub(super) struct TokenStream<'a> {
    tokens: &'a [pp::Token],
    next: usize,
    ctx: ParseContext,
    version: Version,
    extensions: &'a [String],
    /// Current `{` nesting.
    brace_depth: u32,
    /// Current `(` nesting.
    paren_depth: u32,
    /// Type names shadowed by a variable declaration, with the brace depth of
    /// the declaration; they are identifiers until that scope closes.
    shadowed: Vec<(SmolStr, u32)>,
    /// True when the previous token was a type (built-in keyword or type name).
    after_type: bool,
    /// True when the previous token was `.` or `struct` (a name must follow).
    want_name: bool,
    /// Inside `invariant a, b, …;`, which glsl-lang's grammar only accepts
    /// with one name: each `,` is sent as `; invariant`.
    invariant_list: bool,
    /// A synthesized token to send before reading on.
    pending: Option<(usize, Token)>,
    /// Depth-growth guard, see [`ChainGuard`].
    guard: ChainGuard,
    /// Warnings found so far (literal ranges, float suffixes).
    pub warnings: Vec<Diagnostic>,
}

/// Bounds how deep glsl-lang's tree can grow without brackets, so that even the
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
/// (Chains a little longer than the converter accepts still drop safely; the
/// converter reports them.)
const MAX_CHAIN: usize = 2 * super::MAX_TREE_DEPTH;

impl ChainGuard {
    /// Accounts for `token`; `Err` names the chain that grew too long.
    fn track(&mut self, token: &Token, next_is_else: bool) -> Result<(), &'static str> {
        let level = |v: &mut Vec<usize>| {
            if v.is_empty() {
                v.push(0);
            }
            v.len() - 1
        };
        let prev = std::mem::take(&mut self.prev);
        let in_list = self.lists.last().copied().unwrap_or(false);
        match token {
            Token::LeftBrace if prev == Prev::ListStart => {
                // An initializer list: its commas separate entries.
                self.lists.push(true);
                self.prev = Prev::ListStart;
            }
            Token::RightBrace if in_list => {
                self.lists.pop();
                self.prev = Prev::Closed;
            }
            Token::Semicolon | Token::LeftBrace | Token::RightBrace => {
                self.operators = 0;
                match token {
                    Token::LeftBrace => {
                        self.lists.push(false);
                        self.else_run.push(0);
                        self.do_count.push(0);
                    }
                    Token::RightBrace => {
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
            Token::LeftParen => {
                self.lists
                    .push(matches!(prev, Prev::Callable | Prev::Closed));
                if prev == Prev::Closed {
                    self.operators += 1;
                }
            }
            Token::LeftBracket => {
                self.lists.push(false);
                self.operators += 1;
            }
            Token::RightParen | Token::RightBracket => {
                self.lists.pop();
                self.prev = Prev::Closed;
            }
            Token::Comma => {
                if in_list {
                    // `{ {…}, {…} }`: a `{` after this comma opens a nested list
                    // (inside call arguments a `{` is a syntax error anyway).
                    self.prev = Prev::ListStart;
                } else {
                    self.operators += 1;
                }
            }
            Token::Equal => {
                self.operators += 1;
                self.prev = Prev::ListStart;
            }
            Token::Else => {
                self.operators += 1;
                let l = level(&mut self.else_run);
                self.else_run[l] += 1;
                if self.else_run[l] > MAX_CHAIN {
                    return Err("length of an if/else-if chain");
                }
            }
            Token::Do => {
                self.operators += 1;
                let l = level(&mut self.do_count);
                self.do_count[l] += 1;
                if self.do_count[l] > MAX_CHAIN {
                    return Err("number of do-while loops in one block");
                }
            }
            Token::Identifier(_) | Token::TypeName(_) => self.prev = Prev::Callable,
            Token::IntConstant(_)
            | Token::UIntConstant(_)
            | Token::FloatConstant(_)
            | Token::DoubleConstant(_)
            | Token::BoolConstant(_) => {}
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
    /// A stream over `tokens`, classifying words for `version`.
    pub fn new(
        tokens: &'a [pp::Token],
        ctx: ParseContext,
        version: Version,
        extensions: &'a [String],
    ) -> Self {
        TokenStream {
            tokens,
            next: 0,
            ctx,
            version,
            extensions,
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

    /// Turns token `index` into a parser token.
    fn convert(&mut self, index: usize) -> Result<Token, LexError> {
        let tok = &self.tokens[index];
        let text = tok.text.as_str();
        match tok.kind {
            TokenKind::Identifier => self.convert_word(index, text),
            TokenKind::IntLiteral => {
                let lit = parse_int(text, self.version).map_err(|e| self.lex_error(index, e))?;
                if let Some(w) = lit.warning {
                    self.warnings.push(Diagnostic::warning(tok.loc, w));
                }
                Ok(lit.token)
            }
            TokenKind::FloatLiteral => {
                let lit = parse_float(text, self.version).map_err(|e| self.lex_error(index, e))?;
                if let Some(w) = lit.warning {
                    self.warnings.push(Diagnostic::warning(tok.loc, w));
                }
                Ok(lit.token)
            }
            TokenKind::Punct => {
                let token = punct_token(text).ok_or_else(|| {
                    self.lex_error(
                        index,
                        SyntaxError::InvalidToken {
                            text: text.to_owned(),
                        },
                    )
                })?;
                match token {
                    Token::LeftParen => self.paren_depth += 1,
                    Token::RightParen => self.paren_depth = self.paren_depth.saturating_sub(1),
                    Token::Semicolon if self.paren_depth == 0 => {
                        // Names declared in parentheses whose scope never opened
                        // (a prototype, a brace-less `for` body) end here.
                        let depth = self.brace_depth;
                        self.shadowed.retain(|(_, d)| *d <= depth);
                    }
                    Token::LeftBrace => {
                        self.brace_depth += 1;
                        self.ctx.push_scope();
                    }
                    Token::RightBrace => {
                        self.brace_depth = self.brace_depth.saturating_sub(1);
                        let depth = self.brace_depth;
                        self.shadowed.retain(|(_, d)| *d <= depth);
                        self.ctx.pop_scope();
                    }
                    _ => {}
                }
                Ok(token)
            }
        }
    }

    fn convert_word(&mut self, index: usize, text: &str) -> Result<Token, LexError> {
        // Like Mesa, only GLSL ES bounds identifier length.
        if self.version.is_es() && text.len() > limits::MAX_IDENTIFIER_LEN {
            return Err(self.lex_error(
                index,
                Error::Limit {
                    what: "identifier length",
                    limit: limits::MAX_IDENTIFIER_LEN,
                },
            ));
        }
        match text {
            "true" => return Ok(Token::BoolConstant(true)),
            "false" => return Ok(Token::BoolConstant(false)),
            "layout" => {
                // A keyword from GLSL 1.40 / ES 3.00; earlier, extensions enable
                // it, and a following `(` can only be a layout qualifier.
                let next_is_paren = self.tokens.get(index + 1).is_some_and(|t| t.text == "(");
                if self.version.at_least(140, 300) || next_is_paren {
                    return Ok(Token::Layout);
                }
            }
            _ => {}
        }
        match classify_word(text, self.version, self.extensions) {
            Word::Keyword(token) => Ok(token),
            Word::Reserved => Err(self.lex_error(
                index,
                SyntaxError::ReservedWord {
                    word: text.to_owned(),
                },
            )),
            Word::Identifier => Ok(self.identifier_or_type(text)),
        }
    }

    /// Decides between a user type name and an identifier.
    fn identifier_or_type(&mut self, text: &str) -> Token {
        let name = SmolStr::new(text);
        if self.want_name || self.shadowed.iter().any(|(n, _)| *n == name) {
            return Token::Identifier(name);
        }
        if !self.ctx.is_type_name(text) {
            return Token::Identifier(name);
        }
        if self.after_type {
            // `T S` declares a variable `S` that hides the type in this scope.
            // Inside parentheses (parameters, `for`/`while` declarations) the
            // scope is the body that follows.
            let depth = self.brace_depth + u32::from(self.paren_depth > 0);
            self.shadowed.push((name.clone(), depth));
            return Token::Identifier(name);
        }
        Token::TypeName(name)
    }
}

impl HasLexerError for TokenStream<'_> {
    type Error = LexError;
}

impl Iterator for TokenStream<'_> {
    type Item = Result<(LexerPosition, Token, LexerPosition), LexError>;

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
            Token::Invariant => {
                self.invariant_list = self.starts_invariant_list(index);
                if self.type_follows(index) {
                    // glsl-lang's grammar wants another qualifier after
                    // `invariant` (`invariant vec4 x;` in a block fails): send a
                    // `precise` marked as synthetic by sharing the `invariant`
                    // token's position; the converter drops it.
                    self.pending = Some((index, Token::Precise));
                }
            }
            Token::Comma if self.invariant_list => {
                token = Token::Semicolon;
                self.pending = Some((index, Token::Invariant));
            }
            Token::Semicolon => self.invariant_list = false,
            _ => {}
        }
        let next_is_else = self.tokens.get(index + 1).is_some_and(|t| t.text == "else");
        if let Err(what) = self.guard.track(&token, next_is_else) {
            return Some(Err(self.lex_error(
                index,
                Error::Limit {
                    what,
                    limit: MAX_CHAIN,
                },
            )));
        }
        self.after_type = is_type_token(&token);
        self.want_name = matches!(token, Token::Dot | Token::Struct);
        Some(Ok((start_pos(index), token, end_pos(index))))
    }
}

impl TokenStream<'_> {
    /// True when `invariant` at `index` starts `invariant a, b…;` (a name that
    /// is not a type, then a comma).
    fn starts_invariant_list(&self, index: usize) -> bool {
        let (Some(name), Some(comma)) = (self.tokens.get(index + 1), self.tokens.get(index + 2))
        else {
            return false;
        };
        name.kind == TokenKind::Identifier
            && comma.text == ","
            && !self.ctx.is_type_name(&name.text)
            && matches!(
                classify_word(&name.text, self.version, self.extensions),
                Word::Identifier
            )
    }

    /// True when the word after token `index` is a type (keyword or type name).
    fn type_follows(&self, index: usize) -> bool {
        let Some(next) = self.tokens.get(index + 1) else {
            return false;
        };
        if next.kind != TokenKind::Identifier {
            return false;
        }
        match classify_word(&next.text, self.version, self.extensions) {
            Word::Keyword(token) => is_type_token(&token) && token != Token::Struct,
            Word::Reserved => false,
            Word::Identifier => self.ctx.is_type_name(&next.text),
        }
    }

    /// Location of the last token (for "unexpected end of file").
    pub fn last_loc(&self) -> SourceLoc {
        self.loc(self.tokens.len().saturating_sub(1))
    }
}
