//! The parser: an LR(1) parser generated at build time from
//! `grammar.lalrpop` by lalrpop, fed the preprocessor's tokens, building
//! [`crate::ast`] directly.
//!
//! - [`tokens`]: the parser's token type, literal parsing and the token
//!   iterator the generated parser pulls from (type names vs identifiers,
//!   struct-name shadowing, reserved words through [`keywords`]).
//! - `actions`: the AST builders the grammar's actions call.
//! - `depth`: the checks over the finished tree (depth bound, deferred call
//!   errors).
//! - [`print`]: the GLSL-like AST printer behind `rglc --dump-ast`.
//!
//! Before parsing, the token stream's bracket nesting is bounded by
//! [`limits::MAX_NESTING_DEPTH`]; the depth check bounds the depth of
//! expression and statement trees (chains like `a+a+…` or `if(c) if(c) …` nest
//! without brackets) by [`MAX_TREE_DEPTH`], so later recursive passes cannot
//! overflow the stack.
//!
//! The test build keeps glsl-lang's parser as an oracle (`oracle`): every
//! corpus shader must parse to the same tree, or fail with the same
//! diagnostic, both ways.

mod actions;
mod depth;
mod keywords;
#[cfg(test)]
mod oracle;
pub mod print;
mod tokens;

lalrpop_util::lalrpop_mod!(
    #[allow(clippy::all, clippy::pedantic, unused_parens, missing_docs)]
    grammar,
    "/parse/grammar.rs"
);

use lalrpop_util::ParseError;

use crate::ast::TranslationUnit;
use crate::diag::Diagnostic;
use crate::limits;
use crate::pp::{ExtensionBehavior, ExtensionDirective, Interner, Token};
use crate::span::SourceLoc;
use crate::version::Version;
use tokens::{LexError, Tok};

pub use print::print_ast;

/// Deepest expression or statement tree the converter accepts. Bracket nesting
/// is limited separately (and more tightly) by [`limits::MAX_NESTING_DEPTH`];
/// this bound covers operator chains such as `a + b + c + …`, whose trees nest
/// one level per operator.
pub const MAX_TREE_DEPTH: usize = 2 * limits::MAX_NESTING_DEPTH;

/// Syntax errors (and the lexical warnings Mesa gives).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SyntaxError {
    /// The parser met a token it cannot use here.
    #[error("syntax error, unexpected {found}{}", expecting(.expected))]
    Unexpected {
        /// The token found, described as Mesa's bison parser names it.
        found: String,
        /// What would have been accepted (empty when the list is too long to help).
        expected: Vec<String>,
    },
    /// The input ended inside a declaration or statement.
    #[error("syntax error, unexpected end of file{}", expecting(.expected))]
    UnexpectedEof {
        /// What would have been accepted (empty when the list is too long to help).
        expected: Vec<String>,
    },
    /// A character that is no GLSL token (`@`, `$`, a string quote, …).
    #[error("syntax error, unexpected character `{text}'")]
    InvalidToken {
        /// The text of the token.
        text: String,
    },
    /// A word reserved for future use in this version.
    #[error("illegal use of reserved word `{word}'")]
    ReservedWord {
        /// The word.
        word: String,
    },
    /// A numeric literal that is not well formed (`08`, `0x`, `1e`).
    #[error("invalid literal `{text}'")]
    InvalidLiteral {
        /// The literal as written.
        text: String,
    },
    /// An integer literal above `u32::MAX` (an error from GLSL 1.30 / ES 3.00,
    /// a warning before).
    #[error("literal value `{text}' out of range")]
    LiteralOutOfRange {
        /// The literal as written.
        text: String,
    },
    /// Warning: a decimal literal above 2147483648 without `u` wraps negative.
    #[error("signed literal value `{text}' is interpreted as {value}")]
    SignedLiteralWraps {
        /// The literal as written.
        text: String,
        /// The wrapped value.
        value: i32,
    },
    /// A `u`/`U` literal before GLSL 1.30 / ES 3.00.
    #[error(
        "unsigned integer literal `{text}' requires GLSL 1.30 or GLSL ES 3.00 ({version} in use)"
    )]
    UnsignedLiteral {
        /// The literal as written.
        text: String,
        /// The version in use.
        version: Version,
    },
    /// Warning: `f` suffix before GLSL 1.20 / ES 3.00 (Mesa's wording).
    #[error("Float suffixes are invalid in GLSL 1.10")]
    FloatSuffix,
    /// A construct beyond what rgl supports (`1.0lf`, `1ul`, `1.0hf`).
    #[error("{what} are not supported: `{text}'")]
    Unsupported {
        /// What kind of construct.
        what: &'static str,
        /// The text as written.
        text: String,
    },
    /// `x.name()` for a method other than `length`.
    #[error("unknown method: `{name}'")]
    UnknownMethod {
        /// The method name.
        name: String,
    },
    /// A call whose target is neither a name, a type nor `.length`.
    #[error("function call target must be a function name or a type")]
    InvalidCallee,
    /// glsl-lang produced something our lexer can never cause (a bug).
    #[error("internal parser error: {what}")]
    Internal {
        /// What went wrong.
        what: &'static str,
    },
}

/// Renders bison's `, expecting A or B` tail.
fn expecting(expected: &[String]) -> String {
    if expected.is_empty() {
        String::new()
    } else {
        format!(", expecting {}", expected.join(" or "))
    }
}

/// Everything a parse produced.
#[derive(Clone, Debug)]
pub struct ParseOutput {
    /// The translation unit, `None` after an error.
    pub unit: Option<TranslationUnit>,
    /// Errors and warnings, in source order of discovery.
    pub diagnostics: Vec<Diagnostic>,
}

/// Parses preprocessed tokens (spelled in `symbols`) into a translation
/// unit. Warnings are dropped; use [`parse_full`] to keep them.
pub fn parse(
    tokens: &[Token],
    symbols: &Interner,
    version: Version,
) -> Result<TranslationUnit, Vec<Diagnostic>> {
    let out = parse_full(tokens, symbols, version, &[]);
    match out.unit {
        Some(unit) if !out.diagnostics.iter().any(Diagnostic::is_error) => Ok(unit),
        _ => Err(out.diagnostics),
    }
}

/// Parses preprocessed tokens, with the `#extension` directives in effect
/// (they turn some words into keywords, e.g. `uvec4` with
/// `GL_EXT_gpu_shader4` in GLSL 1.20), returning warnings too.
pub fn parse_full(
    tokens: &[Token],
    symbols: &Interner,
    version: Version,
    extensions: &[ExtensionDirective],
) -> ParseOutput {
    let enabled: Vec<String> = extensions
        .iter()
        .filter(|e| e.behavior != ExtensionBehavior::Disable)
        .map(|e| e.name.clone())
        .collect();
    if let Some(diag) = tokens::check_nesting(tokens) {
        return ParseOutput {
            unit: None,
            diagnostics: vec![diag],
        };
    }
    let cx = actions::Cx::new(tokens, symbols, version.is_es());
    let compat = version.is_compat() || enabled.iter().any(|e| e == "GL_ARB_compatibility");
    for name in builtin_struct_types(compat) {
        // A name the shader never spells cannot reach the parser.
        if let Some(sym) = symbols.lookup(name) {
            cx.types.borrow_mut().add(sym);
        }
    }
    let mut stream = tokens::TokenStream::new(tokens, symbols, &cx.types, version, &enabled);
    let result = grammar::TranslationUnitParser::new().parse(&cx, &mut stream);
    let mut diagnostics = std::mem::take(&mut stream.warnings);
    let last_loc = stream.last_loc();
    drop(stream);
    match result {
        Ok(unit) => match depth::check(&unit, &cx.deferred.borrow()) {
            None => ParseOutput {
                unit: Some(unit),
                diagnostics,
            },
            Some(diag) => {
                diagnostics.push(diag);
                ParseOutput {
                    unit: None,
                    diagnostics,
                }
            }
        },
        Err(error) => {
            diagnostics.push(syntax_error(error, tokens, symbols, last_loc));
            ParseOutput {
                unit: None,
                diagnostics,
            }
        }
    }
}

/// The built-in struct types whose names the parser must know as type names:
/// `gl_DepthRangeParameters` everywhere, the fixed-function state structs in
/// the compatibility profile (or with `GL_ARB_compatibility`).
fn builtin_struct_types(compat: bool) -> &'static [&'static str] {
    if compat {
        &[
            "gl_DepthRangeParameters",
            "gl_PointParameters",
            "gl_MaterialParameters",
            "gl_LightSourceParameters",
            "gl_LightModelParameters",
            "gl_LightModelProducts",
            "gl_LightProducts",
            "gl_FogParameters",
        ]
    } else {
        &["gl_DepthRangeParameters"]
    }
}

/// Most expected tokens worth listing (bison's verbose limit).
const MAX_EXPECTED: usize = 4;

/// Turns a lalrpop error into a located diagnostic.
fn syntax_error(
    error: ParseError<u32, Tok, LexError>,
    tokens: &[Token],
    symbols: &Interner,
    last_loc: SourceLoc,
) -> Diagnostic {
    let loc_of = |offset| {
        tokens
            .get(tokens::token_index(offset))
            .map(|t| t.loc)
            .unwrap_or(last_loc)
    };
    match error {
        ParseError::UnrecognizedToken {
            token: (start, token, _),
            expected,
        } => {
            let index = tokens::token_index(start);
            let text = tokens.get(index).map_or("", |t| symbols.get(t.sym));
            Diagnostic::error(
                loc_of(start),
                SyntaxError::Unexpected {
                    found: describe(&token, text),
                    expected: trim_expected(&expected),
                },
            )
        }
        ParseError::UnrecognizedEof { expected, .. } => Diagnostic::error(
            last_loc,
            SyntaxError::UnexpectedEof {
                expected: trim_expected(&expected),
            },
        ),
        ParseError::ExtraToken {
            token: (start, token, _),
        } => {
            let index = tokens::token_index(start);
            let text = tokens.get(index).map_or("", |t| symbols.get(t.sym));
            Diagnostic::error(
                loc_of(start),
                SyntaxError::Unexpected {
                    found: describe(&token, text),
                    expected: Vec::new(),
                },
            )
        }
        ParseError::InvalidToken { location } => Diagnostic::error(
            loc_of(location),
            SyntaxError::Internal {
                what: "invalid token position",
            },
        ),
        ParseError::User { error } => {
            let loc = tokens.get(error.index).map(|t| t.loc).unwrap_or(last_loc);
            Diagnostic::error(loc, error.error)
        }
    }
}

/// Names a token the way Mesa's bison parser does for identifiers and
/// constants; keywords and punctuation are quoted as written.
fn describe(token: &Tok, text: &str) -> String {
    match token {
        Tok::Ident => "IDENTIFIER".to_owned(),
        Tok::TypeName => "TYPE_IDENTIFIER".to_owned(),
        Tok::IntConst(_) => "INTCONSTANT".to_owned(),
        Tok::UintConst(_) => "UINTCONSTANT".to_owned(),
        Tok::FloatConst(_) => "FLOATCONSTANT".to_owned(),
        Tok::BoolConst(_) => "BOOLCONSTANT".to_owned(),
        _ => format!("'{text}'"),
    }
}

/// Maps lalrpop's expected-terminal names to readable ones; returns nothing
/// when more than [`MAX_EXPECTED`] would be listed.
fn trim_expected(expected: &[String]) -> Vec<String> {
    // `builtin_type` stands for every built-in type keyword: far too many.
    if expected.iter().any(|name| name == "builtin_type") {
        return Vec::new();
    }
    let mut out: Vec<String> = Vec::new();
    for name in expected {
        let readable = match name.as_str() {
            "ident" => "IDENTIFIER".to_owned(),
            "ty_name" => "TYPE_IDENTIFIER".to_owned(),
            "int_constant" => "INTCONSTANT".to_owned(),
            "uint_constant" => "UINTCONSTANT".to_owned(),
            "float_constant" => "FLOATCONSTANT".to_owned(),
            "double_constant" => "DOUBLECONSTANT".to_owned(),
            "bool_constant" => "BOOLCONSTANT".to_owned(),
            quoted if quoted.starts_with('"') && quoted.ends_with('"') && quoted.len() >= 2 => {
                let inner = &quoted[1..quoted.len() - 1];
                if inner.starts_with('#') {
                    continue;
                }
                format!("'{inner}'")
            }
            // Preprocessor-only terminals never apply to our token stream.
            _ => continue,
        };
        if !out.contains(&readable) {
            out.push(readable);
        }
    }
    if out.len() > MAX_EXPECTED {
        // lalrpop lists the operators that could extend the expression just
        // read; bison (whose messages Mesa prints) reduces the expression first
        // and lists only what may follow it. Do the same when that is short.
        out.retain(|t| !CONTINUES_EXPRESSION.contains(&t.as_str()));
        if out.len() > MAX_EXPECTED {
            out.clear();
        }
    }
    out
}

/// Tokens that extend a complete expression (operators, postfix, `?`).
const CONTINUES_EXPRESSION: &[&str] = &[
    "'+'", "'-'", "'*'", "'/'", "'%'", "'<'", "'>'", "'<='", "'>='", "'=='", "'!='", "'&'", "'^'",
    "'|'", "'&&'", "'^^'", "'||'", "'<<'", "'>>'", "'='", "'+='", "'-='", "'*='", "'/='", "'%='",
    "'<<='", "'>>='", "'&='", "'^='", "'|='", "'.'", "'['", "'('", "'++'", "'--'", "'?'",
];
