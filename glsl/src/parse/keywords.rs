//! The one version-aware keyword table of the GLSL front end: for every key or
//! reserved word, the parser token, and the desktop / ES versions (or
//! extensions) from which it is a keyword, reserved, or reserved again
//! (GLSL 1.10–4.60 §3.6 "Keywords", ES 1.00 / 3.x §3.6), and
//! [`classify_word`], the lookup the token stream makes for every identifier.

use std::sync::LazyLock;

use glsl_lang::ast::SmolStr;
use glsl_lang::lexer::Token;

use crate::version::Version;

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
