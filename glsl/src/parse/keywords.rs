//! The one version-aware keyword table of the GLSL front end: for every key or
//! reserved word, the parser token, and the desktop / ES versions (or
//! extensions) from which it is a keyword, reserved, or reserved again
//! (GLSL 1.10–4.60 §3.6 "Keywords", ES 1.00 / 3.x §3.6), and
//! [`classify_word`], the lookup the token stream makes for every identifier.

use std::sync::LazyLock;

use super::tokens::Tok;
use crate::version::Version;

/// One reserved or key word. Versions are `(desktop, es)` pairs in the sense of
/// [`Version::at_least`]: 0 means "never" for that family.
struct Keyword {
    word: &'static str,
    /// The parser token, `None` for words that are only ever reserved.
    token: Option<Tok>,
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
const fn always(word: &'static str, token: Tok) -> Keyword {
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
    token: Tok,
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
const fn removed(word: &'static str, token: Tok, removed: (u16, u16)) -> Keyword {
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
/// `precise` and `sample` are keywords under ARB_gpu_shader5 in any version
/// (Mesa's lexer: `KEYWORD_WITH_ALT(400, …, ARB_gpu_shader5_enable …)`).
const GPU5: &[&str] = &["GL_ARB_gpu_shader5"];
/// `shared` is a keyword under ARB_compute_shader in any version.
const COMPUTE: &[&str] = &["GL_ARB_compute_shader"];
/// `buffer` and the memory qualifiers are keywords under
/// ARB_shader_storage_buffer_object in any version.
const SSBO: &[&str] = &["GL_ARB_shader_storage_buffer_object"];
const TEX_ARRAY: &[&str] = &["GL_EXT_texture_array"];
const MS: &[&str] = &["GL_ARB_texture_multisample"];
const CUBE_ARRAY: &[&str] = &["GL_ARB_texture_cube_map_array"];
const ATOMIC_COUNTERS: &[&str] = &["GL_ARB_shader_atomic_counters"];
const FP64: &[&str] = &["GL_ARB_gpu_shader_fp64"];
const SUBROUTINE: &[&str] = &["GL_ARB_shader_subroutine"];
const UBO: &[&str] = &["GL_ARB_uniform_buffer_object"];
const TBO: &[&str] = &["GL_EXT_texture_buffer_object"];
const NONE: &[&str] = &[];
/// GL_ARB_shader_image_load_store: the image types.
const IMAGES: &[&str] = &["GL_ARB_shader_image_load_store"];
/// The memory qualifiers: storage blocks and images.
const MEMORY: &[&str] = &[
    "GL_ARB_shader_storage_buffer_object",
    "GL_ARB_shader_image_load_store",
];

/// Every word whose meaning depends on the version. The versions are the ones
/// Mesa's lexer uses (which follow the keyword and reserved-word lists of each
/// GLSL and GLSL ES specification).
static KEYWORDS: &[Keyword] = &[
    always("const", Tok::Const),
    always("bool", Tok::BuiltinType),
    always("float", Tok::BuiltinType),
    always("int", Tok::BuiltinType),
    always("break", Tok::Break),
    always("continue", Tok::Continue),
    always("do", Tok::Do),
    always("while", Tok::While),
    always("else", Tok::Else),
    always("for", Tok::For),
    always("if", Tok::If),
    always("discard", Tok::Discard),
    always("return", Tok::Return),
    always("bvec2", Tok::BuiltinType),
    always("bvec3", Tok::BuiltinType),
    always("bvec4", Tok::BuiltinType),
    always("ivec2", Tok::BuiltinType),
    always("ivec3", Tok::BuiltinType),
    always("ivec4", Tok::BuiltinType),
    always("vec2", Tok::BuiltinType),
    always("vec3", Tok::BuiltinType),
    always("vec4", Tok::BuiltinType),
    always("mat2", Tok::BuiltinType),
    always("mat3", Tok::BuiltinType),
    always("mat4", Tok::BuiltinType),
    always("in", Tok::In),
    always("out", Tok::Out),
    always("inout", Tok::InOut),
    always("uniform", Tok::Uniform),
    always("sampler2D", Tok::BuiltinType),
    always("sampler3D", Tok::BuiltinType),
    always("samplerCube", Tok::BuiltinType),
    always("sampler2DShadow", Tok::BuiltinType),
    always("struct", Tok::Struct),
    always("void", Tok::Void),
    removed("attribute", Tok::Attribute, (420, 300)),
    removed("varying", Tok::Varying, (420, 300)),
    removed("sampler1D", Tok::BuiltinType, (0, 300)),
    removed("sampler1DShadow", Tok::BuiltinType, (0, 300)),
    kw("uint", Tok::BuiltinType, (130, 300), (130, 300), NONE),
    kw("uvec2", Tok::BuiltinType, (130, 300), (130, 300), GPU4),
    kw("uvec3", Tok::BuiltinType, (130, 300), (130, 300), GPU4),
    kw("uvec4", Tok::BuiltinType, (130, 300), (130, 300), GPU4),
    kw("mat2x2", Tok::BuiltinType, (120, 300), (120, 300), NONE),
    kw("mat2x3", Tok::BuiltinType, (120, 300), (120, 300), NONE),
    kw("mat2x4", Tok::BuiltinType, (120, 300), (120, 300), NONE),
    kw("mat3x2", Tok::BuiltinType, (120, 300), (120, 300), NONE),
    kw("mat3x3", Tok::BuiltinType, (120, 300), (120, 300), NONE),
    kw("mat3x4", Tok::BuiltinType, (120, 300), (120, 300), NONE),
    kw("mat4x2", Tok::BuiltinType, (120, 300), (120, 300), NONE),
    kw("mat4x3", Tok::BuiltinType, (120, 300), (120, 300), NONE),
    kw("mat4x4", Tok::BuiltinType, (120, 300), (120, 300), NONE),
    kw("buffer", Tok::Buffer, (0, 0), (430, 310), SSBO),
    kw("centroid", Tok::Centroid, (120, 300), (120, 300), GPU4),
    kw("invariant", Tok::Invariant, (120, 100), (120, 100), NONE),
    kw("flat", Tok::Flat, (130, 100), (130, 300), GPU4),
    kw("smooth", Tok::Smooth, (130, 300), (130, 300), NONE),
    kw(
        "noperspective",
        Tok::NoPerspective,
        (130, 300),
        (130, 0),
        GPU4,
    ),
    kw("patch", Tok::Patch, (0, 300), (400, 320), NONE),
    kw(
        "sampler1DArray",
        Tok::BuiltinType,
        (130, 300),
        (130, 0),
        TEX_ARRAY,
    ),
    kw(
        "sampler2DArray",
        Tok::BuiltinType,
        (130, 300),
        (130, 300),
        TEX_ARRAY,
    ),
    kw(
        "samplerCubeShadow",
        Tok::BuiltinType,
        (130, 300),
        (130, 300),
        GPU4,
    ),
    kw(
        "sampler1DArrayShadow",
        Tok::BuiltinType,
        (130, 300),
        (130, 0),
        TEX_ARRAY,
    ),
    kw(
        "sampler2DArrayShadow",
        Tok::BuiltinType,
        (130, 300),
        (130, 300),
        TEX_ARRAY,
    ),
    kw("isampler1D", Tok::BuiltinType, (130, 300), (130, 0), GPU4),
    kw("isampler2D", Tok::BuiltinType, (130, 300), (130, 300), GPU4),
    kw("isampler3D", Tok::BuiltinType, (130, 300), (130, 300), GPU4),
    kw(
        "isamplerCube",
        Tok::BuiltinType,
        (130, 300),
        (130, 300),
        GPU4,
    ),
    kw(
        "isampler1DArray",
        Tok::BuiltinType,
        (130, 300),
        (130, 0),
        GPU4,
    ),
    kw(
        "isampler2DArray",
        Tok::BuiltinType,
        (130, 300),
        (130, 300),
        GPU4,
    ),
    kw("usampler1D", Tok::BuiltinType, (130, 300), (130, 0), GPU4),
    kw("usampler2D", Tok::BuiltinType, (130, 300), (130, 300), GPU4),
    kw("usampler3D", Tok::BuiltinType, (130, 300), (130, 300), GPU4),
    kw(
        "usamplerCube",
        Tok::BuiltinType,
        (130, 300),
        (130, 300),
        GPU4,
    ),
    kw(
        "usampler1DArray",
        Tok::BuiltinType,
        (130, 300),
        (130, 0),
        GPU4,
    ),
    kw(
        "usampler2DArray",
        Tok::BuiltinType,
        (130, 300),
        (130, 300),
        GPU4,
    ),
    kw("sampler2DMS", Tok::BuiltinType, (150, 300), (150, 310), MS),
    kw("isampler2DMS", Tok::BuiltinType, (150, 300), (150, 310), MS),
    kw("usampler2DMS", Tok::BuiltinType, (150, 300), (150, 310), MS),
    kw(
        "sampler2DMSArray",
        Tok::BuiltinType,
        (150, 300),
        (150, 320),
        MS,
    ),
    kw(
        "isampler2DMSArray",
        Tok::BuiltinType,
        (150, 300),
        (150, 320),
        MS,
    ),
    kw(
        "usampler2DMSArray",
        Tok::BuiltinType,
        (150, 300),
        (150, 320),
        MS,
    ),
    kw(
        "samplerCubeArray",
        Tok::BuiltinType,
        (400, 310),
        (400, 320),
        CUBE_ARRAY,
    ),
    kw(
        "isamplerCubeArray",
        Tok::BuiltinType,
        (400, 310),
        (400, 320),
        CUBE_ARRAY,
    ),
    kw(
        "usamplerCubeArray",
        Tok::BuiltinType,
        (400, 310),
        (400, 320),
        CUBE_ARRAY,
    ),
    kw(
        "samplerCubeArrayShadow",
        Tok::BuiltinType,
        (400, 310),
        (400, 320),
        CUBE_ARRAY,
    ),
    kw("precise", Tok::Precise, (400, 310), (400, 320), GPU5),
    kw("image1D", Tok::BuiltinType, (130, 300), (420, 0), IMAGES),
    kw("image2D", Tok::BuiltinType, (130, 300), (420, 310), IMAGES),
    kw("image3D", Tok::BuiltinType, (130, 300), (420, 310), IMAGES),
    kw(
        "image2DRect",
        Tok::BuiltinType,
        (130, 300),
        (420, 0),
        IMAGES,
    ),
    kw(
        "imageCube",
        Tok::BuiltinType,
        (130, 300),
        (420, 310),
        IMAGES,
    ),
    kw(
        "imageBuffer",
        Tok::BuiltinType,
        (130, 300),
        (420, 320),
        IMAGES,
    ),
    kw(
        "image1DArray",
        Tok::BuiltinType,
        (130, 300),
        (420, 0),
        IMAGES,
    ),
    kw(
        "image2DArray",
        Tok::BuiltinType,
        (130, 300),
        (420, 310),
        IMAGES,
    ),
    kw(
        "imageCubeArray",
        Tok::BuiltinType,
        (130, 300),
        (420, 320),
        IMAGES,
    ),
    kw("image2DMS", Tok::BuiltinType, (130, 300), (420, 0), IMAGES),
    kw(
        "image2DMSArray",
        Tok::BuiltinType,
        (130, 300),
        (420, 0),
        IMAGES,
    ),
    kw("iimage1D", Tok::BuiltinType, (130, 300), (420, 0), IMAGES),
    kw("iimage2D", Tok::BuiltinType, (130, 300), (420, 310), IMAGES),
    kw("iimage3D", Tok::BuiltinType, (130, 300), (420, 310), IMAGES),
    kw(
        "iimage2DRect",
        Tok::BuiltinType,
        (130, 300),
        (420, 0),
        IMAGES,
    ),
    kw(
        "iimageCube",
        Tok::BuiltinType,
        (130, 300),
        (420, 310),
        IMAGES,
    ),
    kw(
        "iimageBuffer",
        Tok::BuiltinType,
        (130, 300),
        (420, 320),
        IMAGES,
    ),
    kw(
        "iimage1DArray",
        Tok::BuiltinType,
        (130, 300),
        (420, 0),
        IMAGES,
    ),
    kw(
        "iimage2DArray",
        Tok::BuiltinType,
        (130, 300),
        (420, 310),
        IMAGES,
    ),
    kw(
        "iimageCubeArray",
        Tok::BuiltinType,
        (130, 300),
        (420, 320),
        IMAGES,
    ),
    kw("iimage2DMS", Tok::BuiltinType, (130, 300), (420, 0), IMAGES),
    kw(
        "iimage2DMSArray",
        Tok::BuiltinType,
        (130, 300),
        (420, 0),
        IMAGES,
    ),
    kw("uimage1D", Tok::BuiltinType, (130, 300), (420, 0), IMAGES),
    kw("uimage2D", Tok::BuiltinType, (130, 300), (420, 310), IMAGES),
    kw("uimage3D", Tok::BuiltinType, (130, 300), (420, 310), IMAGES),
    kw(
        "uimage2DRect",
        Tok::BuiltinType,
        (130, 300),
        (420, 0),
        IMAGES,
    ),
    kw(
        "uimageCube",
        Tok::BuiltinType,
        (130, 300),
        (420, 310),
        IMAGES,
    ),
    kw(
        "uimageBuffer",
        Tok::BuiltinType,
        (130, 300),
        (420, 320),
        IMAGES,
    ),
    kw(
        "uimage1DArray",
        Tok::BuiltinType,
        (130, 300),
        (420, 0),
        IMAGES,
    ),
    kw(
        "uimage2DArray",
        Tok::BuiltinType,
        (130, 300),
        (420, 310),
        IMAGES,
    ),
    kw(
        "uimageCubeArray",
        Tok::BuiltinType,
        (130, 300),
        (420, 320),
        IMAGES,
    ),
    kw("uimage2DMS", Tok::BuiltinType, (130, 300), (420, 0), IMAGES),
    kw(
        "uimage2DMSArray",
        Tok::BuiltinType,
        (130, 300),
        (420, 0),
        IMAGES,
    ),
    reserved("image1DShadow", (130, 0)),
    reserved("image2DShadow", (130, 0)),
    reserved("image1DArrayShadow", (130, 0)),
    reserved("image2DArrayShadow", (130, 0)),
    kw("coherent", Tok::Coherent, (420, 300), (420, 310), MEMORY),
    kw("volatile", Tok::Volatile, (110, 100), (420, 310), MEMORY),
    kw("restrict", Tok::Restrict, (420, 300), (420, 310), MEMORY),
    kw("readonly", Tok::ReadOnly, (420, 300), (420, 310), MEMORY),
    kw("writeonly", Tok::WriteOnly, (420, 300), (420, 310), MEMORY),
    kw(
        "atomic_uint",
        Tok::BuiltinType,
        (420, 300),
        (420, 310),
        ATOMIC_COUNTERS,
    ),
    kw("shared", Tok::Shared, (430, 310), (430, 310), COMPUTE),
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
    kw("packed", Tok::Ident, (110, 100), (140, 300), UBO),
    reserved("goto", (110, 100)),
    kw("switch", Tok::Switch, (110, 100), (130, 300), NONE),
    kw("default", Tok::Default, (110, 100), (130, 300), NONE),
    reserved("inline", (110, 100)),
    reserved("noinline", (110, 100)),
    reserved("public", (110, 100)),
    reserved("static", (110, 100)),
    reserved("extern", (110, 100)),
    reserved("external", (110, 100)),
    reserved("interface", (110, 100)),
    reserved("long", (110, 100)),
    reserved("short", (110, 100)),
    kw("double", Tok::BuiltinType, (130, 100), (130, 300), FP64),
    reserved("half", (110, 100)),
    reserved("fixed", (110, 100)),
    reserved("unsigned", (110, 100)),
    reserved("input", (110, 100)),
    reserved("output", (110, 100)),
    reserved("hvec2", (110, 100)),
    reserved("hvec3", (110, 100)),
    reserved("hvec4", (110, 100)),
    kw("dvec2", Tok::BuiltinType, (110, 100), (400, 0), FP64),
    kw("dvec3", Tok::BuiltinType, (110, 100), (400, 0), FP64),
    kw("dvec4", Tok::BuiltinType, (110, 100), (400, 0), FP64),
    kw("dmat2", Tok::BuiltinType, (110, 100), (400, 0), FP64),
    kw("dmat3", Tok::BuiltinType, (110, 100), (400, 0), FP64),
    kw("dmat4", Tok::BuiltinType, (110, 100), (400, 0), FP64),
    kw("dmat2x2", Tok::BuiltinType, (110, 100), (400, 0), FP64),
    kw("dmat2x3", Tok::BuiltinType, (110, 100), (400, 0), FP64),
    kw("dmat2x4", Tok::BuiltinType, (110, 100), (400, 0), FP64),
    kw("dmat3x2", Tok::BuiltinType, (110, 100), (400, 0), FP64),
    kw("dmat3x3", Tok::BuiltinType, (110, 100), (400, 0), FP64),
    kw("dmat3x4", Tok::BuiltinType, (110, 100), (400, 0), FP64),
    kw("dmat4x2", Tok::BuiltinType, (110, 100), (400, 0), FP64),
    kw("dmat4x3", Tok::BuiltinType, (110, 100), (400, 0), FP64),
    kw("dmat4x4", Tok::BuiltinType, (110, 100), (400, 0), FP64),
    reserved("fvec2", (110, 100)),
    reserved("fvec3", (110, 100)),
    reserved("fvec4", (110, 100)),
    // ARB_texture_rectangle is always enabled in desktop GLSL (as in Mesa).
    kw(
        "sampler2DRect",
        Tok::BuiltinType,
        (110, 100),
        (110, 0),
        NONE,
    ),
    reserved("sampler3DRect", (110, 100)),
    kw(
        "sampler2DRectShadow",
        Tok::BuiltinType,
        (110, 100),
        (110, 0),
        NONE,
    ),
    reserved("sizeof", (110, 100)),
    reserved("cast", (110, 100)),
    reserved("namespace", (110, 100)),
    reserved("using", (110, 100)),
    // Reserved in GLSL 1.20, keywords from 1.30 and in GLSL ES.
    kw("lowp", Tok::LowPrecision, (120, 100), (130, 100), NONE),
    kw(
        "mediump",
        Tok::MediumPrecision,
        (120, 100),
        (130, 100),
        NONE,
    ),
    kw("highp", Tok::HighPrecision, (120, 100), (130, 100), NONE),
    kw("precision", Tok::Precision, (120, 100), (130, 100), NONE),
    // Reserved from GLSL 1.30.
    kw("case", Tok::Case, (130, 300), (130, 300), NONE),
    reserved("common", (130, 300)),
    reserved("partition", (130, 300)),
    reserved("active", (130, 300)),
    reserved("superp", (130, 100)),
    kw(
        "samplerBuffer",
        Tok::BuiltinType,
        (130, 300),
        (140, 320),
        TBO,
    ),
    reserved("filter", (130, 300)),
    kw("row_major", Tok::Ident, (130, 0), (140, 0), UBO),
    // Reserved from GLSL 1.40.
    kw(
        "isampler2DRect",
        Tok::BuiltinType,
        (140, 300),
        (140, 0),
        NONE,
    ),
    kw(
        "usampler2DRect",
        Tok::BuiltinType,
        (140, 300),
        (140, 0),
        NONE,
    ),
    kw(
        "isamplerBuffer",
        Tok::BuiltinType,
        (140, 300),
        (140, 320),
        NONE,
    ),
    kw(
        "usamplerBuffer",
        Tok::BuiltinType,
        (140, 300),
        (140, 320),
        NONE,
    ),
    // Reserved from GLSL ES 3.00.
    reserved("resource", (420, 300)),
    kw("sample", Tok::Sample, (400, 300), (400, 320), GPU5),
    kw(
        "subroutine",
        Tok::Subroutine,
        (400, 300),
        (400, 0),
        SUBROUTINE,
    ),
];

/// Index of [`KEYWORDS`] sorted by word, for binary search.
static SORTED: LazyLock<Vec<&'static Keyword>> = LazyLock::new(|| {
    let mut sorted: Vec<&'static Keyword> = KEYWORDS.iter().collect();
    sorted.sort_by(|a, b| a.word.cmp(b.word));
    sorted
});

/// What a word means in one version.
#[derive(Clone, Copy, Debug)]
pub(super) enum Word {
    /// A keyword: this parser token.
    Keyword(Tok),
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
            Some(token) => Word::Keyword(*token),
            None => Word::Reserved,
        }
    } else if at(entry.reserved) || at(entry.removed) {
        Word::Reserved
    } else {
        Word::Identifier
    }
}
