//! The GLSL preprocessor, faithful to Mesa's glcpp: directives, macros,
//! conditionals, `#version`/`#extension`/`#pragma`/`#line`, predefined macros.
//! Output is a token stream (with source locations) for [`crate::parse`].
//!
//! Layout: [`lexer`] splits the text into logical lines of tokens,
//! `directives` drives the line loop and implements every directive,
//! `macros` defines and expands macros (iteratively, with disabled-macro
//! contexts, so hostile input cannot overflow the stack), `expr` evaluates
//! `#if` expressions.
//!
//! Behaviour follows Mesa (glcpp plus the compiler's handling of `#version`,
//! `#extension` and `#pragma`), notably:
//! * `__LINE__` is the line of the last token of the list being expanded (the
//!   text line, including the lines a macro invocation spans, or the macro
//!   argument); after `#line N` the next line is `N`. Token locations (what
//!   the compiler reports) use `N + 1` in desktop GLSL before 3.30, as Mesa's
//!   compiler does.
//! * `__LINE__`/`__FILE__` are not `defined`; `GL_FRAGMENT_PRECISION_HIGH`
//!   exists in every stage for GLSL 1.30+ and ES; one macro per extension of
//!   [`crate::extensions`].
//! * Names with `GL_` cannot be defined or undefined (error); names with `__`
//!   give a warning (an error for `#undef` in GLSL ES ≤ 3.00).
//! * Undefined identifiers in `#if` are 0 (an error in GLSL ES unless
//!   short-circuited); `/ 0` and `% 0` are errors even in a short-circuited
//!   operand, as in Mesa; only integers are accepted.
//! * `##` pastes unexpanded arguments (C semantics; Mesa pastes expanded ones)
//!   and only yields a single valid token (Mesa's rules for punctuators and
//!   numbers); `##` is an error in GLSL ES; `#` (stringizing) is an error.
//! * `#extension` after the first token, and the pragmas the compiler acts on
//!   (`debug`, `optimize`, `warning`, `STDGL invariant(all)`) inside a
//!   declaration or function, are errors.
//! * `version_override` replaces the number of `#version` (ES for 100 and 300).
//! * `#include` (`GL_ARB_shading_language_include`) and `#line N "path"`: see
//!   [`include`] for the search rules and the line numbering of included
//!   strings.

mod directives;
mod expr;
pub mod include;
pub(crate) mod lexer;
mod macros;

pub use include::{IncludeLookup, IncludeOptions, NamedStringTree};
pub use lexer::{Interner, Sym};

use crate::diag::Diagnostic;
use crate::span::SourceLoc;
use crate::version::{Stage, Version};

/// Preprocessor errors and warnings. The texts follow Mesa's glcpp and GLSL
/// front end where Mesa has a message for the case.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PpError {
    /// `#error` directive.
    #[error("#error{sep}{0}", sep = if .0.is_empty() { "" } else { " " })]
    ErrorDirective(String),
    /// `/*` without a matching `*/`.
    #[error("Unterminated comment")]
    UnterminatedComment,
    /// A character that cannot start any GLSL token, in active code.
    #[error("illegal character `{0}'")]
    IllegalCharacter(String),
    /// `#` or `##` outside a directive or macro body.
    #[error("`{0}' is only allowed at the start of a preprocessor directive")]
    StrayHash(String),
    /// An identifier longer than [`crate::limits::MAX_IDENTIFIER_LEN`].
    #[error("Identifier `{name}' exceeds {limit} characters")]
    IdentifierTooLong {
        /// The identifier (shortened for display).
        name: String,
        /// The limit.
        limit: usize,
    },
    /// `#` followed by something that is not a directive.
    #[error("Illegal non-directive after #")]
    IllegalNonDirective,
    /// `#version` after other tokens or directives, or a second `#version`.
    #[error("#version must appear on the first line")]
    VersionNotFirst,
    /// `#version` without a number.
    #[error("#version requires an integer version number")]
    VersionSyntax,
    /// A version rgl does not compile.
    #[error("{requested} is not supported. Supported versions are: {supported}")]
    VersionUnsupported {
        /// E.g. `GLSL 4.60` or `GLSL ES 3.10`.
        requested: String,
        /// [`Version::supported_list`].
        supported: String,
    },
    /// An unknown profile word after a 1.50+ version.
    #[error("\"{0}\" is not a valid shading language profile; if present, it must be \"core\"")]
    VersionBadProfile(String),
    /// A profile word after a version that has no profiles.
    #[error("illegal text following version number")]
    VersionIllegalText,
    /// `#version 100 es`.
    #[error("GLSL 1.00 ES should be selected using `#version 100'")]
    VersionEs100,
    /// Tokens after a complete directive.
    #[error("extra tokens at end of directive")]
    ExtraTokens,
    /// `#define`, `#undef`, `#ifdef` or `#ifndef` without a name.
    #[error("#{0} without macro name")]
    MissingMacroName(&'static str),
    /// A macro name that is not an identifier.
    #[error("macro names must be identifiers")]
    MacroNameNotIdentifier,
    /// Defining a name starting with `GL_`.
    #[error("Macro names starting with \"GL_\" are reserved.")]
    ReservedGlPrefix,
    /// Defining a name containing `__` (a warning, as in Mesa).
    #[error("Macro names containing \"__\" are reserved for use by the implementation.")]
    ReservedDoubleUnderscore,
    /// `#define defined`.
    #[error("\"defined\" cannot be used as a macro name")]
    DefinedAsMacroName,
    /// A different definition of an already defined macro.
    #[error("Redefinition of macro {0}")]
    Redefinition(String),
    /// `#undef GL_…`.
    #[error("Built-in (pre-defined) names beginning with GL_ cannot be undefined.")]
    UndefGlPrefix,
    /// `#undef __LINE__` and the like (GLSL ES 3.00).
    #[error("Built-in (pre-defined) names cannot be undefined.")]
    UndefBuiltin,
    /// `#undef` of a name containing `__` (error in GLSL ES, else a warning).
    #[error("names containing consecutive underscores are reserved.")]
    UndefDoubleUnderscore,
    /// `#define` followed by something that is not an identifier.
    #[error("#define followed by a non-identifier: {0}")]
    DefineNonIdentifier(String),
    /// `##` in GLSL ES.
    #[error("Token pasting (##) is illegal in GLES")]
    PasteInEs,
    /// `#version 0100`.
    #[error("invalid #version \"{0}\" (not a decimal constant)")]
    VersionNotDecimal(String),
    /// A pragma the compiler acts on, inside a declaration or function.
    #[error("#pragma {0} is only allowed outside function definitions and declarations")]
    PragmaPlacement(String),
    /// Two parameters with the same name.
    #[error("Duplicate macro parameter \"{0}\"")]
    DuplicateParameter(String),
    /// `#define f(...)`.
    #[error("variadic macros are not supported in GLSL")]
    VariadicMacro,
    /// A malformed parameter list.
    #[error("invalid macro parameter list")]
    BadParameterList,
    /// `#` (stringizing) in a macro body.
    #[error("'#' (stringification) is not supported in GLSL macros")]
    Stringification,
    /// `##` first or last in a macro body.
    #[error("'##' cannot appear at either end of a macro expansion")]
    PasteAtEdge,
    /// `a ## b` that does not form one token.
    #[error("Pasting \"{0}\" and \"{1}\" does not give a valid preprocessing token.")]
    PasteInvalid(String, String),
    /// A function-like macro invocation without its closing parenthesis.
    #[error("Macro {0} call has unbalanced parentheses")]
    UnbalancedParentheses(String),
    /// Wrong number of macro arguments.
    #[error("Error: macro {name} invoked with {given} arguments (expected {expected})")]
    ArgumentCount {
        /// Macro.
        name: String,
        /// Arguments given.
        given: usize,
        /// Parameters.
        expected: usize,
    },
    /// `#if`/`#elif` without an expression.
    #[error("#{0} with no expression")]
    NoExpression(&'static str),
    /// `#elif` after `#else` (the warning case: after a taken branch).
    #[error("ignoring illegal #elif without expression")]
    ElifNoExpressionIgnored,
    /// `#elif` after `#else`.
    #[error("#elif after #else")]
    ElifAfterElse,
    /// Second `#else`.
    #[error("multiple #else")]
    MultipleElse,
    /// `#elif`/`#else`/`#endif` without an open `#if`.
    #[error("#{0} without #if")]
    WithoutIf(&'static str),
    /// End of input inside a conditional group.
    #[error("Unterminated #if")]
    UnterminatedIf,
    /// `/ 0` in `#if`.
    #[error("division by 0 in preprocessor directive")]
    DivisionByZero,
    /// `% 0` in `#if`.
    #[error("zero modulus in preprocessor directive")]
    ModulusByZero,
    /// Malformed `#if` expression.
    #[error("syntax error in preprocessor expression, unexpected {0}")]
    ExpressionSyntax(String),
    /// An integer constant `#if` cannot read.
    #[error("invalid integer constant `{0}' in preprocessor expression")]
    BadInteger(String),
    /// ES forbids undefined identifiers in `#if`.
    #[error("undefined macro {0} in expression (illegal in GLES)")]
    UndefinedMacroInEs(String),
    /// `defined` not followed by a name.
    #[error("\"defined\" not followed by an identifier")]
    DefinedWithoutName,
    /// Malformed `#line`.
    #[error("#line requires a line number and an optional source string number")]
    LineSyntax,
    /// Malformed `#extension`.
    #[error("#extension requires `name : behavior'")]
    ExtensionSyntax,
    /// Unknown behaviour word.
    #[error("unknown extension behavior `{0}'")]
    ExtensionBehavior(String),
    /// `#extension all : require|enable`.
    #[error("cannot {0} all extensions")]
    ExtensionAll(&'static str),
    /// Extension rgl does not support (error with `require`, else a warning).
    #[error("extension `{name}' unsupported in {stage} shader")]
    ExtensionUnsupported {
        /// Extension.
        name: String,
        /// Stage name.
        stage: &'static str,
    },
    /// `#extension` after declarations.
    #[error("#extension directive is not allowed in the middle of a shader")]
    ExtensionMidShader,
    /// `#pragma STDGL invariant(all)` in a fragment shader.
    #[error("pragma `invariant(all)' cannot be used in a fragment shader.")]
    InvariantAllInFragment,
    /// `#include` not followed by a path in `"…"` or `<…>`.
    #[error("#include requires a path in double quotes or angle brackets")]
    IncludeSyntax,
    /// `#include` of a path the named-string tree has no string for (Mesa's
    /// glcpp message: the directive's text, e.g. `include "/a" not found`).
    #[error("{0} not found")]
    IncludeNotFound(String),
    /// `#include` without `GL_ARB_shading_language_include` enabled.
    #[error("ARB_shading_language_include required to use #include")]
    IncludeNotEnabled,
    /// `#line N "path"` without `GL_ARB_shading_language_include` enabled.
    #[error("ARB_shading_language_include required to use #line <line> \"<path>\"")]
    LinePathNotEnabled,
    /// `#pragma STDGL invariant(all)` before GLSL 1.20 (a warning).
    #[error("pragma `invariant(all)' not supported in {0} (GLSL ES 1.00 or GLSL 1.20 required)")]
    InvariantAllUnsupported(String),
}

/// Options for one preprocessing run.
#[derive(Clone, Debug)]
pub struct PpOptions {
    /// The stage being compiled (extension defines can depend on it).
    pub stage: Stage,
    /// Forces the version (`RGL_GLSL_VERSION_OVERRIDE`), replacing `#version`.
    pub version_override: Option<u16>,
}

/// Kind of a preprocessed token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// Identifier or keyword.
    Identifier,
    /// Integer literal as written (`12`, `0x1F`, `7u`).
    IntLiteral,
    /// Floating literal as written (`1.0`, `2e3f`, `1.5lf`).
    FloatLiteral,
    /// Operator or punctuation (`+=`, `(`, `;`, …).
    Punct,
}

/// One output token. Its spelling is interned: [`PpOutput::text`] (or the
/// [`Interner`] it came from) gives it back.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Token {
    /// Kind.
    pub kind: TokenKind,
    /// Exact spelling, as a symbol of [`PpOutput::symbols`].
    pub sym: Sym,
    /// Location (for macro expansions: the location of the invocation).
    pub loc: SourceLoc,
}

/// How an `#extension` directive asked for an extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtensionBehavior {
    /// `require`
    Require,
    /// `enable`
    Enable,
    /// `warn`
    Warn,
    /// `disable`
    Disable,
}

impl ExtensionBehavior {
    /// The directive word.
    pub fn name(self) -> &'static str {
        match self {
            ExtensionBehavior::Require => "require",
            ExtensionBehavior::Enable => "enable",
            ExtensionBehavior::Warn => "warn",
            ExtensionBehavior::Disable => "disable",
        }
    }
}

/// One `#extension name : behavior` directive.
#[derive(Clone, Debug, PartialEq)]
pub struct ExtensionDirective {
    /// Extension name or `all`.
    pub name: String,
    /// Behaviour.
    pub behavior: ExtensionBehavior,
    /// Location of the directive.
    pub loc: SourceLoc,
}

/// One `#pragma` directive (not macro-expanded).
#[derive(Clone, Debug, PartialEq)]
pub struct PragmaDirective {
    /// The tokens after `pragma`, joined with single spaces where the source
    /// had whitespace.
    pub text: String,
    /// Location of the `#`.
    pub loc: SourceLoc,
}

/// Result of preprocessing.
#[derive(Clone, Debug)]
pub struct PpOutput {
    /// Tokens for the parser.
    pub tokens: Vec<Token>,
    /// The spellings of the tokens.
    pub symbols: Interner,
    /// The effective version (from `#version`, the override, or 1.10).
    pub version: Version,
    /// Every `#extension` directive, in order.
    pub extensions: Vec<ExtensionDirective>,
    /// Every `#pragma` directive, in order.
    pub pragmas: Vec<PragmaDirective>,
    /// True when `#pragma STDGL invariant(all)` applies (GLSL 1.20+/ES, not in
    /// fragment shaders, where it is an error).
    pub invariant_all: bool,
    /// Errors and warnings.
    pub diagnostics: Vec<Diagnostic>,
}

impl PpOutput {
    /// The spelling of one of [`PpOutput::tokens`].
    pub fn text(&self, token: &Token) -> &str {
        self.symbols.get(token.sym)
    }
}

/// Preprocesses one shader source (every `#include` fails: no named strings).
pub fn preprocess(source: &str, options: &PpOptions) -> PpOutput {
    directives::Pp::new(source, options, None).run()
}

/// Preprocesses one shader source, `#include` looking strings up in
/// `includes` (see [`include`]).
pub fn preprocess_with_includes(
    source: &str,
    options: &PpOptions,
    includes: IncludeOptions<'_>,
) -> PpOutput {
    directives::Pp::new(source, options, Some(includes)).run()
}
