//! The oracle's token bridge between the preprocessor and glsl-lang's LALR
//! parser (the parser rgl used before its own): words classified through the
//! keyword table, literals parsed by the parser's own functions, both turned
//! into glsl-lang tokens, and [`TokenStream`], the iterator glsl-lang's
//! generated parser pulls tokens from.
//!
//! Positions handed to the parser encode token indices: token `i` starts at
//! offset `2*i` and ends at `2*i+1`, so the start of any node span divided by two
//! is the index of the node's first token (and thereby its [`SourceLoc`]).

use std::fmt;

use glsl_lang::ast::{FileId, SmolStr, TextSize};
use glsl_lang::lexer::{HasLexerError, ParseContext, Token};
use lang_util::position::LexerPosition;

use super::super::keywords::{classify_word, Word};
use super::super::tokens::{self, Tok};
use super::super::SyntaxError;
use crate::diag::{Diagnostic, Error};
use crate::limits;
use crate::pp::{self, Interner, TokenKind};
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
// Tokens of the new parser, as glsl-lang tokens
// ---------------------------------------------------------------------------

/// The glsl-lang token of a token of ours spelled `text`.
fn gl_token(tok: Tok, text: &str) -> Token {
    match tok {
        Tok::Ident => Token::Identifier(SmolStr::new(text)),
        Tok::TypeName => Token::TypeName(SmolStr::new(text)),
        Tok::IntConst(v) => Token::IntConstant(v),
        Tok::UintConst(v) => Token::UIntConstant(v),
        Tok::FloatConst(v) => Token::FloatConstant(v),
        Tok::BoolConst(v) => Token::BoolConstant(v),
        Tok::BuiltinType => builtin_type_token(text),
        Tok::Void => Token::Void,
        Tok::Struct => Token::Struct,
        Tok::Const => Token::Const,
        Tok::In => Token::In,
        Tok::Out => Token::Out,
        Tok::InOut => Token::InOut,
        Tok::Centroid => Token::Centroid,
        Tok::Patch => Token::Patch,
        Tok::Sample => Token::Sample,
        Tok::Uniform => Token::Uniform,
        Tok::Buffer => Token::Buffer,
        Tok::Shared => Token::Shared,
        Tok::Coherent => Token::Coherent,
        Tok::Volatile => Token::Volatile,
        Tok::Restrict => Token::Restrict,
        Tok::ReadOnly => Token::ReadOnly,
        Tok::WriteOnly => Token::WriteOnly,
        Tok::Attribute => Token::Attribute,
        Tok::Varying => Token::Varying,
        Tok::Subroutine => Token::Subroutine,
        Tok::Layout => Token::Layout,
        Tok::Precision => Token::Precision,
        Tok::HighPrecision => Token::HighPrecision,
        Tok::MediumPrecision => Token::MediumPrecision,
        Tok::LowPrecision => Token::LowPrecision,
        Tok::Smooth => Token::Smooth,
        Tok::Flat => Token::Flat,
        Tok::NoPerspective => Token::NoPerspective,
        Tok::Invariant => Token::Invariant,
        Tok::Precise => Token::Precise,
        Tok::If => Token::If,
        Tok::Else => Token::Else,
        Tok::Switch => Token::Switch,
        Tok::Case => Token::Case,
        Tok::Default => Token::Default,
        Tok::While => Token::While,
        Tok::Do => Token::Do,
        Tok::For => Token::For,
        Tok::Continue => Token::Continue,
        Tok::Break => Token::Break,
        Tok::Discard => Token::Discard,
        Tok::Return => Token::Return,
        Tok::LeftParen => Token::LeftParen,
        Tok::RightParen => Token::RightParen,
        Tok::LeftBracket => Token::LeftBracket,
        Tok::RightBracket => Token::RightBracket,
        Tok::LeftBrace => Token::LeftBrace,
        Tok::RightBrace => Token::RightBrace,
        Tok::Dot => Token::Dot,
        Tok::Comma => Token::Comma,
        Tok::Colon => Token::Colon,
        Tok::Semicolon => Token::Semicolon,
        Tok::Equal => Token::Equal,
        Tok::Plus => Token::Plus,
        Tok::Dash => Token::Dash,
        Tok::Star => Token::Star,
        Tok::Slash => Token::Slash,
        Tok::Percent => Token::Percent,
        Tok::LeftAngle => Token::LeftAngle,
        Tok::RightAngle => Token::RightAngle,
        Tok::Bang => Token::Bang,
        Tok::Tilde => Token::Tilde,
        Tok::VerticalBar => Token::VerticalBar,
        Tok::Caret => Token::Caret,
        Tok::Ampersand => Token::Ampersand,
        Tok::Question => Token::Question,
        Tok::IncOp => Token::IncOp,
        Tok::DecOp => Token::DecOp,
        Tok::LeftOp => Token::LeftOp,
        Tok::RightOp => Token::RightOp,
        Tok::LeOp => Token::LeOp,
        Tok::GeOp => Token::GeOp,
        Tok::EqOp => Token::EqOp,
        Tok::NeOp => Token::NeOp,
        Tok::AndOp => Token::AndOp,
        Tok::OrOp => Token::OrOp,
        Tok::XorOp => Token::XorOp,
        Tok::MulAssign => Token::MulAssign,
        Tok::DivAssign => Token::DivAssign,
        Tok::ModAssign => Token::ModAssign,
        Tok::AddAssign => Token::AddAssign,
        Tok::SubAssign => Token::SubAssign,
        Tok::LeftAssign => Token::LeftAssign,
        Tok::RightAssign => Token::RightAssign,
        Tok::AndAssign => Token::AndAssign,
        Tok::XorAssign => Token::XorAssign,
        Tok::OrAssign => Token::OrAssign,
    }
}

/// The glsl-lang token of a built-in type keyword of the keyword table.
fn builtin_type_token(text: &str) -> Token {
    match text {
        "bool" => Token::Bool,
        "int" => Token::Int,
        "uint" => Token::UInt,
        "float" => Token::Float,
        "double" => Token::Double,
        "vec2" => Token::Vec2,
        "vec3" => Token::Vec3,
        "vec4" => Token::Vec4,
        "dvec2" => Token::DVec2,
        "dvec3" => Token::DVec3,
        "dvec4" => Token::DVec4,
        "bvec2" => Token::BVec2,
        "bvec3" => Token::BVec3,
        "bvec4" => Token::BVec4,
        "ivec2" => Token::IVec2,
        "ivec3" => Token::IVec3,
        "ivec4" => Token::IVec4,
        "uvec2" => Token::UVec2,
        "uvec3" => Token::UVec3,
        "uvec4" => Token::UVec4,
        "mat2" => Token::Mat2,
        "mat3" => Token::Mat3,
        "mat4" => Token::Mat4,
        "mat2x2" => Token::Mat2x2,
        "mat2x3" => Token::Mat2x3,
        "mat2x4" => Token::Mat2x4,
        "mat3x2" => Token::Mat3x2,
        "mat3x3" => Token::Mat3x3,
        "mat3x4" => Token::Mat3x4,
        "mat4x2" => Token::Mat4x2,
        "mat4x3" => Token::Mat4x3,
        "mat4x4" => Token::Mat4x4,
        "dmat2" => Token::DMat2,
        "dmat3" => Token::DMat3,
        "dmat4" => Token::DMat4,
        "dmat2x2" => Token::DMat2x2,
        "dmat2x3" => Token::DMat2x3,
        "dmat2x4" => Token::DMat2x4,
        "dmat3x2" => Token::DMat3x2,
        "dmat3x3" => Token::DMat3x3,
        "dmat3x4" => Token::DMat3x4,
        "dmat4x2" => Token::DMat4x2,
        "dmat4x3" => Token::DMat4x3,
        "dmat4x4" => Token::DMat4x4,
        "sampler1D" => Token::Sampler1D,
        "sampler2D" => Token::Sampler2D,
        "sampler3D" => Token::Sampler3D,
        "samplerCube" => Token::SamplerCube,
        "sampler2DRect" => Token::Sampler2DRect,
        "sampler1DArray" => Token::Sampler1DArray,
        "sampler2DArray" => Token::Sampler2DArray,
        "samplerBuffer" => Token::SamplerBuffer,
        "sampler2DMS" => Token::Sampler2DMs,
        "sampler2DMSArray" => Token::Sampler2DMsArray,
        "samplerCubeArray" => Token::SamplerCubeArray,
        "sampler1DShadow" => Token::Sampler1DShadow,
        "sampler2DShadow" => Token::Sampler2DShadow,
        "sampler2DRectShadow" => Token::Sampler2DRectShadow,
        "sampler1DArrayShadow" => Token::Sampler1DArrayShadow,
        "sampler2DArrayShadow" => Token::Sampler2DArrayShadow,
        "samplerCubeShadow" => Token::SamplerCubeShadow,
        "samplerCubeArrayShadow" => Token::SamplerCubeArrayShadow,
        "isampler1D" => Token::ISampler1D,
        "isampler2D" => Token::ISampler2D,
        "isampler3D" => Token::ISampler3D,
        "isamplerCube" => Token::ISamplerCube,
        "isampler2DRect" => Token::ISampler2DRect,
        "isampler1DArray" => Token::ISampler1DArray,
        "isampler2DArray" => Token::ISampler2DArray,
        "isamplerBuffer" => Token::ISamplerBuffer,
        "isampler2DMS" => Token::ISampler2DMs,
        "isampler2DMSArray" => Token::ISampler2DMsArray,
        "isamplerCubeArray" => Token::ISamplerCubeArray,
        "usampler1D" => Token::USampler1D,
        "usampler2D" => Token::USampler2D,
        "usampler3D" => Token::USampler3D,
        "usamplerCube" => Token::USamplerCube,
        "usampler2DRect" => Token::USampler2DRect,
        "usampler1DArray" => Token::USampler1DArray,
        "usampler2DArray" => Token::USampler2DArray,
        "usamplerBuffer" => Token::USamplerBuffer,
        "usampler2DMS" => Token::USampler2DMs,
        "usampler2DMSArray" => Token::USampler2DMsArray,
        "usamplerCubeArray" => Token::USamplerCubeArray,
        "image1D" => Token::Image1D,
        "image2D" => Token::Image2D,
        "image3D" => Token::Image3D,
        "image2DRect" => Token::Image2DRect,
        "imageCube" => Token::ImageCube,
        "imageBuffer" => Token::ImageBuffer,
        "image1DArray" => Token::Image1DArray,
        "image2DArray" => Token::Image2DArray,
        "imageCubeArray" => Token::ImageCubeArray,
        "image2DMS" => Token::Image2DMs,
        "image2DMSArray" => Token::Image2DMsArray,
        "iimage1D" => Token::IImage1D,
        "iimage2D" => Token::IImage2D,
        "iimage3D" => Token::IImage3D,
        "iimage2DRect" => Token::IImage2DRect,
        "iimageCube" => Token::IImageCube,
        "iimageBuffer" => Token::IImageBuffer,
        "iimage1DArray" => Token::IImage1DArray,
        "iimage2DArray" => Token::IImage2DArray,
        "iimageCubeArray" => Token::IImageCubeArray,
        "iimage2DMS" => Token::IImage2DMs,
        "iimage2DMSArray" => Token::IImage2DMsArray,
        "uimage1D" => Token::UImage1D,
        "uimage2D" => Token::UImage2D,
        "uimage3D" => Token::UImage3D,
        "uimage2DRect" => Token::UImage2DRect,
        "uimageCube" => Token::UImageCube,
        "uimageBuffer" => Token::UImageBuffer,
        "uimage1DArray" => Token::UImage1DArray,
        "uimage2DArray" => Token::UImage2DArray,
        "uimageCubeArray" => Token::UImageCubeArray,
        "uimage2DMS" => Token::UImage2DMs,
        "uimage2DMSArray" => Token::UImage2DMsArray,
        "atomic_uint" => Token::AtomicUInt,
        // Every built-in type of the keyword table is listed above.
        other => panic!("oracle: no glsl-lang token for `{other}'"),
    }
}

/// A literal of ours as a glsl-lang literal.
pub(super) struct Literal {
    pub token: Token,
    pub warning: Option<SyntaxError>,
}

fn parse_int(text: &str, version: Version) -> Result<Literal, SyntaxError> {
    let lit = tokens::parse_int(text, version)?;
    Ok(Literal {
        token: gl_token(lit.token, text),
        warning: lit.warning,
    })
}

fn parse_float(text: &str, version: Version) -> Result<Literal, SyntaxError> {
    let lit = tokens::parse_float(text, version)?;
    Ok(Literal {
        token: gl_token(lit.token, text),
        warning: lit.warning,
    })
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
    symbols: &'a Interner,
    next: usize,
    ctx: ParseContext,
    version: Version,
    extensions: &'a [String],
    /// Current `{` nesting.
    brace_depth: u32,
    /// Current `(` nesting.
    paren_depth: u32,
    /// For each open `{`, whether it opened a scope in the parse context
    /// (struct bodies do not: GLSL 1.10 §4.1.8 scopes an embedded struct's
    /// name at the level of the struct it is embedded in, as rgl's parser does).
    brace_scopes: Vec<bool>,
    /// Type names shadowed by a variable declaration, with the brace depth of
    /// the declaration; they are identifiers until that scope closes.
    shadowed: Vec<(SmolStr, u32)>,
    /// True when the previous token was a type (built-in keyword or type name).
    after_type: bool,
    /// True when the previous token was `.` or `struct` (a name must follow).
    want_name: bool,
    /// After a `subroutine` without a type list: the next name followed by `(`
    /// is a subroutine type being declared, a type name from then on (as our
    /// parser's `Cx::prototype` registers it).
    subroutine_type_pending: bool,
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
const MAX_CHAIN: usize = 2 * super::super::MAX_TREE_DEPTH;

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
        symbols: &'a Interner,
        ctx: ParseContext,
        version: Version,
        extensions: &'a [String],
    ) -> Self {
        TokenStream {
            tokens,
            symbols,
            next: 0,
            ctx,
            version,
            extensions,
            brace_depth: 0,
            paren_depth: 0,
            brace_scopes: Vec::new(),
            shadowed: Vec::new(),
            after_type: false,
            want_name: false,
            subroutine_type_pending: false,
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
        let tok = self.tokens[index];
        let text = self.symbols.get(tok.sym);
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
                        let is_struct = |i: usize| {
                            self.tokens.get(i).is_some_and(|t| {
                                t.kind == TokenKind::Identifier
                                    && self.symbols.get(t.sym) == "struct"
                            })
                        };
                        let struct_body = (index >= 1 && is_struct(index - 1))
                            || (index >= 2
                                && self.tokens[index - 1].kind == TokenKind::Identifier
                                && is_struct(index - 2));
                        self.brace_scopes.push(!struct_body);
                        if !struct_body {
                            self.ctx.push_scope();
                        }
                    }
                    Token::RightBrace => {
                        self.brace_depth = self.brace_depth.saturating_sub(1);
                        let depth = self.brace_depth;
                        self.shadowed.retain(|(_, d)| *d <= depth);
                        if self.brace_scopes.pop().unwrap_or(true) {
                            self.ctx.pop_scope();
                        }
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
                let next_is_paren = self
                    .tokens
                    .get(index + 1)
                    .is_some_and(|t| self.symbols.get(t.sym) == "(");
                if self.version.at_least(140, 300) || next_is_paren {
                    return Ok(Token::Layout);
                }
            }
            _ => {}
        }
        match classify_word(text, self.version, self.extensions) {
            Word::Keyword(token) => Ok(gl_token(token, text)),
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
        let text_at = |i: usize| self.tokens.get(i).map(|t| self.symbols.get(t.sym));
        match &token {
            Token::Subroutine => {
                self.subroutine_type_pending =
                    text_at(index + 1) != Some("(") || text_at(index + 2) == Some(")");
            }
            Token::Identifier(name)
                if self.subroutine_type_pending && text_at(index + 1) == Some("(") =>
            {
                self.ctx.add_type_name(glsl_lang::ast::Node::new(
                    glsl_lang::ast::IdentifierData::from(name.as_str()),
                    None,
                ));
                self.subroutine_type_pending = false;
            }
            Token::Semicolon | Token::LeftBrace => self.subroutine_type_pending = false,
            _ => {}
        }
        let next_is_else = self
            .tokens
            .get(index + 1)
            .is_some_and(|t| self.symbols.get(t.sym) == "else");
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
            && self.symbols.get(comma.sym) == ","
            && !self.ctx.is_type_name(self.symbols.get(name.sym))
            && matches!(
                classify_word(self.symbols.get(name.sym), self.version, self.extensions),
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
        let text = self.symbols.get(next.sym);
        match classify_word(text, self.version, self.extensions) {
            Word::Keyword(token) => {
                let token = gl_token(token, text);
                is_type_token(&token) && token != Token::Struct
            }
            Word::Reserved => false,
            Word::Identifier => self.ctx.is_type_name(text),
        }
    }

    /// Location of the last token (for "unexpected end of file").
    pub fn last_loc(&self) -> SourceLoc {
        self.loc(self.tokens.len().saturating_sub(1))
    }
}
