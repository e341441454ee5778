//! The token bridge between the preprocessor and glsl-lang's LALR parser: the
//! one version-aware keyword table, literal parsing, and [`TokenStream`], the
//! iterator the generated parser pulls tokens from.
//!
//! Positions handed to the parser encode token indices: token `i` starts at
//! offset `2*i` and ends at `2*i+1`, so the start of any node span divided by two
//! is the index of the node's first token (and thereby its [`SourceLoc`]).

use std::fmt;
use std::sync::LazyLock;

use glsl_lang::ast::{FileId, SmolStr, TextSize};
use glsl_lang::lexer::{HasLexerError, ParseContext, Token};
use lang_util::position::LexerPosition;

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

// ---------------------------------------------------------------------------
// Keyword table
// ---------------------------------------------------------------------------

/// One reserved or key word. Versions are `(desktop, es)` pairs in the sense of
/// [`Version::at_least`]: 0 means "never" for that family.
struct Keyword {
    word: &'static str,
    /// The parser token, `None` for words that are only ever reserved.
    token: Option<Token>,
    /// From these versions on, using the word (when it is not a keyword) is an error.
    reserved: (u16, u16),
    /// From these versions on, the word is a keyword.
    allowed: (u16, u16),
    /// From these versions on, the word is reserved again (deprecated keywords).
    removed: (u16, u16),
    /// Extensions that make the word a keyword in any version.
    extensions: &'static [&'static str],
}

/// A keyword in every version.
const fn always(word: &'static str, token: Token) -> Keyword {
    Keyword {
        word,
        token: Some(token),
        reserved: (0, 0),
        allowed: (110, 100),
        removed: (0, 0),
        extensions: &[],
    }
}

/// A word that is reserved from `reserved` and a keyword from `allowed`.
const fn kw(
    word: &'static str,
    token: Token,
    reserved: (u16, u16),
    allowed: (u16, u16),
    extensions: &'static [&'static str],
) -> Keyword {
    Keyword {
        word,
        token: Some(token),
        reserved,
        allowed,
        removed: (0, 0),
        extensions,
    }
}

/// A word that is only ever reserved (from `reserved` on).
const fn reserved(word: &'static str, reserved: (u16, u16)) -> Keyword {
    Keyword {
        word,
        token: None,
        reserved,
        allowed: (0, 0),
        removed: (0, 0),
        extensions: &[],
    }
}

/// A keyword that later versions reserve again.
const fn removed(word: &'static str, token: Token, removed: (u16, u16)) -> Keyword {
    Keyword {
        word,
        token: Some(token),
        reserved: (0, 0),
        allowed: (110, 100),
        removed,
        extensions: &[],
    }
}

const GPU4: &[&str] = &["GL_EXT_gpu_shader4"];
const TEX_ARRAY: &[&str] = &["GL_EXT_texture_array"];
const MS: &[&str] = &["GL_ARB_texture_multisample"];
const CUBE_ARRAY: &[&str] = &["GL_ARB_texture_cube_map_array"];
const FP64: &[&str] = &["GL_ARB_gpu_shader_fp64"];
const UBO: &[&str] = &["GL_ARB_uniform_buffer_object"];
const TBO: &[&str] = &["GL_EXT_texture_buffer_object"];
const NONE: &[&str] = &[];

/// Every word whose meaning depends on the version. The versions are the ones
/// Mesa's lexer uses (which follow the keyword and reserved-word lists of each
/// GLSL and GLSL ES specification).
static KEYWORDS: &[Keyword] = &[
    always("const", Token::Const),
    always("bool", Token::Bool),
    always("float", Token::Float),
    always("int", Token::Int),
    always("break", Token::Break),
    always("continue", Token::Continue),
    always("do", Token::Do),
    always("while", Token::While),
    always("else", Token::Else),
    always("for", Token::For),
    always("if", Token::If),
    always("discard", Token::Discard),
    always("return", Token::Return),
    always("bvec2", Token::BVec2),
    always("bvec3", Token::BVec3),
    always("bvec4", Token::BVec4),
    always("ivec2", Token::IVec2),
    always("ivec3", Token::IVec3),
    always("ivec4", Token::IVec4),
    always("vec2", Token::Vec2),
    always("vec3", Token::Vec3),
    always("vec4", Token::Vec4),
    always("mat2", Token::Mat2),
    always("mat3", Token::Mat3),
    always("mat4", Token::Mat4),
    always("in", Token::In),
    always("out", Token::Out),
    always("inout", Token::InOut),
    always("uniform", Token::Uniform),
    always("sampler2D", Token::Sampler2D),
    always("sampler3D", Token::Sampler3D),
    always("samplerCube", Token::SamplerCube),
    always("sampler2DShadow", Token::Sampler2DShadow),
    always("struct", Token::Struct),
    always("void", Token::Void),
    removed("attribute", Token::Attribute, (420, 300)),
    removed("varying", Token::Varying, (420, 300)),
    removed("sampler1D", Token::Sampler1D, (0, 300)),
    removed("sampler1DShadow", Token::Sampler1DShadow, (0, 300)),
    kw("uint", Token::UInt, (130, 300), (130, 300), NONE),
    kw("uvec2", Token::UVec2, (130, 300), (130, 300), GPU4),
    kw("uvec3", Token::UVec3, (130, 300), (130, 300), GPU4),
    kw("uvec4", Token::UVec4, (130, 300), (130, 300), GPU4),
    kw("mat2x2", Token::Mat2x2, (120, 300), (120, 300), NONE),
    kw("mat2x3", Token::Mat2x3, (120, 300), (120, 300), NONE),
    kw("mat2x4", Token::Mat2x4, (120, 300), (120, 300), NONE),
    kw("mat3x2", Token::Mat3x2, (120, 300), (120, 300), NONE),
    kw("mat3x3", Token::Mat3x3, (120, 300), (120, 300), NONE),
    kw("mat3x4", Token::Mat3x4, (120, 300), (120, 300), NONE),
    kw("mat4x2", Token::Mat4x2, (120, 300), (120, 300), NONE),
    kw("mat4x3", Token::Mat4x3, (120, 300), (120, 300), NONE),
    kw("mat4x4", Token::Mat4x4, (120, 300), (120, 300), NONE),
    kw("buffer", Token::Buffer, (0, 0), (430, 310), NONE),
    kw("centroid", Token::Centroid, (120, 300), (120, 300), GPU4),
    kw("invariant", Token::Invariant, (120, 100), (120, 100), NONE),
    kw("flat", Token::Flat, (130, 100), (130, 300), GPU4),
    kw("smooth", Token::Smooth, (130, 300), (130, 300), NONE),
    kw(
        "noperspective",
        Token::NoPerspective,
        (130, 300),
        (130, 0),
        GPU4,
    ),
    kw("patch", Token::Patch, (0, 300), (400, 320), NONE),
    kw(
        "sampler1DArray",
        Token::Sampler1DArray,
        (130, 300),
        (130, 0),
        TEX_ARRAY,
    ),
    kw(
        "sampler2DArray",
        Token::Sampler2DArray,
        (130, 300),
        (130, 300),
        TEX_ARRAY,
    ),
    kw(
        "samplerCubeShadow",
        Token::SamplerCubeShadow,
        (130, 300),
        (130, 300),
        GPU4,
    ),
    kw(
        "sampler1DArrayShadow",
        Token::Sampler1DArrayShadow,
        (130, 300),
        (130, 0),
        TEX_ARRAY,
    ),
    kw(
        "sampler2DArrayShadow",
        Token::Sampler2DArrayShadow,
        (130, 300),
        (130, 300),
        TEX_ARRAY,
    ),
    kw("isampler1D", Token::ISampler1D, (130, 300), (130, 0), GPU4),
    kw(
        "isampler2D",
        Token::ISampler2D,
        (130, 300),
        (130, 300),
        GPU4,
    ),
    kw(
        "isampler3D",
        Token::ISampler3D,
        (130, 300),
        (130, 300),
        GPU4,
    ),
    kw(
        "isamplerCube",
        Token::ISamplerCube,
        (130, 300),
        (130, 300),
        GPU4,
    ),
    kw(
        "isampler1DArray",
        Token::ISampler1DArray,
        (130, 300),
        (130, 0),
        GPU4,
    ),
    kw(
        "isampler2DArray",
        Token::ISampler2DArray,
        (130, 300),
        (130, 300),
        GPU4,
    ),
    kw("usampler1D", Token::USampler1D, (130, 300), (130, 0), GPU4),
    kw(
        "usampler2D",
        Token::USampler2D,
        (130, 300),
        (130, 300),
        GPU4,
    ),
    kw(
        "usampler3D",
        Token::USampler3D,
        (130, 300),
        (130, 300),
        GPU4,
    ),
    kw(
        "usamplerCube",
        Token::USamplerCube,
        (130, 300),
        (130, 300),
        GPU4,
    ),
    kw(
        "usampler1DArray",
        Token::USampler1DArray,
        (130, 300),
        (130, 0),
        GPU4,
    ),
    kw(
        "usampler2DArray",
        Token::USampler2DArray,
        (130, 300),
        (130, 300),
        GPU4,
    ),
    kw(
        "sampler2DMS",
        Token::Sampler2DMs,
        (150, 300),
        (150, 310),
        MS,
    ),
    kw(
        "isampler2DMS",
        Token::ISampler2DMs,
        (150, 300),
        (150, 310),
        MS,
    ),
    kw(
        "usampler2DMS",
        Token::USampler2DMs,
        (150, 300),
        (150, 310),
        MS,
    ),
    kw(
        "sampler2DMSArray",
        Token::Sampler2DMsArray,
        (150, 300),
        (150, 320),
        MS,
    ),
    kw(
        "isampler2DMSArray",
        Token::ISampler2DMsArray,
        (150, 300),
        (150, 320),
        MS,
    ),
    kw(
        "usampler2DMSArray",
        Token::USampler2DMsArray,
        (150, 300),
        (150, 320),
        MS,
    ),
    kw(
        "samplerCubeArray",
        Token::SamplerCubeArray,
        (400, 310),
        (400, 320),
        CUBE_ARRAY,
    ),
    kw(
        "isamplerCubeArray",
        Token::ISamplerCubeArray,
        (400, 310),
        (400, 320),
        CUBE_ARRAY,
    ),
    kw(
        "usamplerCubeArray",
        Token::USamplerCubeArray,
        (400, 310),
        (400, 320),
        CUBE_ARRAY,
    ),
    kw(
        "samplerCubeArrayShadow",
        Token::SamplerCubeArrayShadow,
        (400, 310),
        (400, 320),
        CUBE_ARRAY,
    ),
    kw("precise", Token::Precise, (400, 310), (400, 320), NONE),
    kw("image1D", Token::Image1D, (130, 300), (420, 0), NONE),
    kw("image2D", Token::Image2D, (130, 300), (420, 310), NONE),
    kw("image3D", Token::Image3D, (130, 300), (420, 310), NONE),
    kw(
        "image2DRect",
        Token::Image2DRect,
        (130, 300),
        (420, 0),
        NONE,
    ),
    kw("imageCube", Token::ImageCube, (130, 300), (420, 310), NONE),
    kw(
        "imageBuffer",
        Token::ImageBuffer,
        (130, 300),
        (420, 320),
        NONE,
    ),
    kw(
        "image1DArray",
        Token::Image1DArray,
        (130, 300),
        (420, 0),
        NONE,
    ),
    kw(
        "image2DArray",
        Token::Image2DArray,
        (130, 300),
        (420, 310),
        NONE,
    ),
    kw(
        "imageCubeArray",
        Token::ImageCubeArray,
        (130, 300),
        (420, 320),
        NONE,
    ),
    kw("image2DMS", Token::Image2DMs, (130, 300), (420, 0), NONE),
    kw(
        "image2DMSArray",
        Token::Image2DMsArray,
        (130, 300),
        (420, 0),
        NONE,
    ),
    kw("iimage1D", Token::IImage1D, (130, 300), (420, 0), NONE),
    kw("iimage2D", Token::IImage2D, (130, 300), (420, 310), NONE),
    kw("iimage3D", Token::IImage3D, (130, 300), (420, 310), NONE),
    kw(
        "iimage2DRect",
        Token::IImage2DRect,
        (130, 300),
        (420, 0),
        NONE,
    ),
    kw(
        "iimageCube",
        Token::IImageCube,
        (130, 300),
        (420, 310),
        NONE,
    ),
    kw(
        "iimageBuffer",
        Token::IImageBuffer,
        (130, 300),
        (420, 320),
        NONE,
    ),
    kw(
        "iimage1DArray",
        Token::IImage1DArray,
        (130, 300),
        (420, 0),
        NONE,
    ),
    kw(
        "iimage2DArray",
        Token::IImage2DArray,
        (130, 300),
        (420, 310),
        NONE,
    ),
    kw(
        "iimageCubeArray",
        Token::IImageCubeArray,
        (130, 300),
        (420, 320),
        NONE,
    ),
    kw("iimage2DMS", Token::IImage2DMs, (130, 300), (420, 0), NONE),
    kw(
        "iimage2DMSArray",
        Token::IImage2DMsArray,
        (130, 300),
        (420, 0),
        NONE,
    ),
    kw("uimage1D", Token::UImage1D, (130, 300), (420, 0), NONE),
    kw("uimage2D", Token::UImage2D, (130, 300), (420, 310), NONE),
    kw("uimage3D", Token::UImage3D, (130, 300), (420, 310), NONE),
    kw(
        "uimage2DRect",
        Token::UImage2DRect,
        (130, 300),
        (420, 0),
        NONE,
    ),
    kw(
        "uimageCube",
        Token::UImageCube,
        (130, 300),
        (420, 310),
        NONE,
    ),
    kw(
        "uimageBuffer",
        Token::UImageBuffer,
        (130, 300),
        (420, 320),
        NONE,
    ),
    kw(
        "uimage1DArray",
        Token::UImage1DArray,
        (130, 300),
        (420, 0),
        NONE,
    ),
    kw(
        "uimage2DArray",
        Token::UImage2DArray,
        (130, 300),
        (420, 310),
        NONE,
    ),
    kw(
        "uimageCubeArray",
        Token::UImageCubeArray,
        (130, 300),
        (420, 320),
        NONE,
    ),
    kw("uimage2DMS", Token::UImage2DMs, (130, 300), (420, 0), NONE),
    kw(
        "uimage2DMSArray",
        Token::UImage2DMsArray,
        (130, 300),
        (420, 0),
        NONE,
    ),
    reserved("image1DShadow", (130, 0)),
    reserved("image2DShadow", (130, 0)),
    reserved("image1DArrayShadow", (130, 0)),
    reserved("image2DArrayShadow", (130, 0)),
    kw("coherent", Token::Coherent, (420, 300), (420, 310), NONE),
    kw("volatile", Token::Volatile, (110, 100), (420, 310), NONE),
    kw("restrict", Token::Restrict, (420, 300), (420, 310), NONE),
    kw("readonly", Token::ReadOnly, (420, 300), (420, 310), NONE),
    kw("writeonly", Token::WriteOnly, (420, 300), (420, 310), NONE),
    kw(
        "atomic_uint",
        Token::AtomicUInt,
        (420, 300),
        (420, 310),
        NONE,
    ),
    kw("shared", Token::Shared, (430, 310), (430, 310), NONE),
    // Reserved words of GLSL 1.10 / GLSL ES 1.00.
    reserved("asm", (110, 100)),
    reserved("class", (110, 100)),
    reserved("union", (110, 100)),
    reserved("enum", (110, 100)),
    reserved("typedef", (110, 100)),
    reserved("template", (110, 100)),
    reserved("this", (110, 100)),
    // `packed` and `row_major` are layout-qualifier words: as keywords they reach
    // the parser as identifiers inside `layout(...)`.
    kw(
        "packed",
        Token::Identifier(SmolStr::new_static("packed")),
        (110, 100),
        (140, 300),
        UBO,
    ),
    reserved("goto", (110, 100)),
    kw("switch", Token::Switch, (110, 100), (130, 300), NONE),
    kw("default", Token::Default, (110, 100), (130, 300), NONE),
    reserved("inline", (110, 100)),
    reserved("noinline", (110, 100)),
    reserved("public", (110, 100)),
    reserved("static", (110, 100)),
    reserved("extern", (110, 100)),
    reserved("external", (110, 100)),
    reserved("interface", (110, 100)),
    reserved("long", (110, 100)),
    reserved("short", (110, 100)),
    kw("double", Token::Double, (130, 100), (130, 300), FP64),
    reserved("half", (110, 100)),
    reserved("fixed", (110, 100)),
    reserved("unsigned", (110, 100)),
    reserved("input", (110, 100)),
    reserved("output", (110, 100)),
    reserved("hvec2", (110, 100)),
    reserved("hvec3", (110, 100)),
    reserved("hvec4", (110, 100)),
    kw("dvec2", Token::DVec2, (110, 100), (400, 0), FP64),
    kw("dvec3", Token::DVec3, (110, 100), (400, 0), FP64),
    kw("dvec4", Token::DVec4, (110, 100), (400, 0), FP64),
    kw("dmat2", Token::DMat2, (110, 100), (400, 0), FP64),
    kw("dmat3", Token::DMat3, (110, 100), (400, 0), FP64),
    kw("dmat4", Token::DMat4, (110, 100), (400, 0), FP64),
    kw("dmat2x2", Token::DMat2x2, (110, 100), (400, 0), FP64),
    kw("dmat2x3", Token::DMat2x3, (110, 100), (400, 0), FP64),
    kw("dmat2x4", Token::DMat2x4, (110, 100), (400, 0), FP64),
    kw("dmat3x2", Token::DMat3x2, (110, 100), (400, 0), FP64),
    kw("dmat3x3", Token::DMat3x3, (110, 100), (400, 0), FP64),
    kw("dmat3x4", Token::DMat3x4, (110, 100), (400, 0), FP64),
    kw("dmat4x2", Token::DMat4x2, (110, 100), (400, 0), FP64),
    kw("dmat4x3", Token::DMat4x3, (110, 100), (400, 0), FP64),
    kw("dmat4x4", Token::DMat4x4, (110, 100), (400, 0), FP64),
    reserved("fvec2", (110, 100)),
    reserved("fvec3", (110, 100)),
    reserved("fvec4", (110, 100)),
    // ARB_texture_rectangle is always enabled in desktop GLSL (as in Mesa).
    kw(
        "sampler2DRect",
        Token::Sampler2DRect,
        (110, 100),
        (110, 0),
        NONE,
    ),
    reserved("sampler3DRect", (110, 100)),
    kw(
        "sampler2DRectShadow",
        Token::Sampler2DRectShadow,
        (110, 100),
        (110, 0),
        NONE,
    ),
    reserved("sizeof", (110, 100)),
    reserved("cast", (110, 100)),
    reserved("namespace", (110, 100)),
    reserved("using", (110, 100)),
    // Reserved in GLSL 1.20, keywords from 1.30 and in GLSL ES.
    kw("lowp", Token::LowPrecision, (120, 100), (130, 100), NONE),
    kw(
        "mediump",
        Token::MediumPrecision,
        (120, 100),
        (130, 100),
        NONE,
    ),
    kw("highp", Token::HighPrecision, (120, 100), (130, 100), NONE),
    kw("precision", Token::Precision, (120, 100), (130, 100), NONE),
    // Reserved from GLSL 1.30.
    kw("case", Token::Case, (130, 300), (130, 300), NONE),
    reserved("common", (130, 300)),
    reserved("partition", (130, 300)),
    reserved("active", (130, 300)),
    reserved("superp", (130, 100)),
    kw(
        "samplerBuffer",
        Token::SamplerBuffer,
        (130, 300),
        (140, 320),
        TBO,
    ),
    reserved("filter", (130, 300)),
    kw(
        "row_major",
        Token::Identifier(SmolStr::new_static("row_major")),
        (130, 0),
        (140, 0),
        UBO,
    ),
    // Reserved from GLSL 1.40.
    kw(
        "isampler2DRect",
        Token::ISampler2DRect,
        (140, 300),
        (140, 0),
        NONE,
    ),
    kw(
        "usampler2DRect",
        Token::USampler2DRect,
        (140, 300),
        (140, 0),
        NONE,
    ),
    kw(
        "isamplerBuffer",
        Token::ISamplerBuffer,
        (140, 300),
        (140, 320),
        NONE,
    ),
    kw(
        "usamplerBuffer",
        Token::USamplerBuffer,
        (140, 300),
        (140, 320),
        NONE,
    ),
    // Reserved from GLSL ES 3.00.
    reserved("resource", (420, 300)),
    kw("sample", Token::Sample, (400, 300), (400, 320), NONE),
    kw("subroutine", Token::Subroutine, (400, 300), (400, 0), NONE),
];

/// Index of [`KEYWORDS`] sorted by word, for binary search.
static SORTED: LazyLock<Vec<&'static Keyword>> = LazyLock::new(|| {
    let mut sorted: Vec<&'static Keyword> = KEYWORDS.iter().collect();
    sorted.sort_by(|a, b| a.word.cmp(b.word));
    sorted
});

/// What a word means in one version.
#[derive(Debug)]
pub(super) enum Word {
    /// A keyword: this parser token.
    Keyword(Token),
    /// A reserved word: using it is an error.
    Reserved,
    /// An ordinary identifier (or a type name, decided by the caller).
    Identifier,
}

/// Classifies a word for `version` with the enabled `extensions`.
pub(super) fn classify_word(word: &str, version: Version, extensions: &[String]) -> Word {
    let first = word.as_bytes().first().copied().unwrap_or(b'_');
    // Every table word starts with a lower-case letter.
    if !first.is_ascii_lowercase() {
        return Word::Identifier;
    }
    let Ok(found) = SORTED.binary_search_by(|k| k.word.cmp(word)) else {
        return Word::Identifier;
    };
    let entry = SORTED[found];
    let at = |pair: (u16, u16)| version.at_least(pair.0, pair.1);
    let by_extension = entry
        .extensions
        .iter()
        .any(|e| extensions.iter().any(|x| x == e));
    if (at(entry.allowed) || by_extension) && !at(entry.removed) {
        match &entry.token {
            Some(token) => Word::Keyword(token.clone()),
            None => Word::Reserved,
        }
    } else if at(entry.reserved) || at(entry.removed) {
        Word::Reserved
    } else {
        Word::Identifier
    }
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
