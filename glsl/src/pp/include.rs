//! `#include` (`GL_ARB_shading_language_include`): the tree of named strings
//! the GL supplies, path validation and lookup (Appendix A of the extension),
//! the search rules of the directive, and the driver's stack of included
//! strings.
//!
//! The preprocessor does not own the named strings: its caller passes an
//! [`IncludeOptions`] (a [`NamedStringTree`] and the search paths of
//! `glCompileShaderIncludeARB`), so this crate stays independent of GL state.
//!
//! Behaviour follows Mesa (glcpp's `INCLUDE` rule in `glcpp-parse.y`, the
//! compiler lexer's `{HASH}include` rule, `_mesa_lookup_shader_include` in
//! `shaderapi.c`) where the specification leaves room:
//! * `#include` is processed whether or not the extension is enabled; when it
//!   is not, the directive is an error (`ARB_shading_language_include required
//!   to use #include`), reported only when the string was found (a missing
//!   string gives only the "not found" error, as in Mesa).
//! * A missing string, a location without a string, or an invalid path is the
//!   error `include "path" not found` at the `#`.
//! * The included string is preprocessed with the includer's macros and the
//!   macros it defines stay defined after it; its conditional groups must be
//!   closed inside it (Mesa runs a separate glcpp parser over it), and a macro
//!   invocation does not continue past its end.
//! * Line numbering: every token and message of an included string is located
//!   in that string (source 0, line 1 at its first line), the way Mesa's glcpp
//!   reports preprocessor errors in it; `__FILE__` there is 0 (Mesa has no
//!   paths in locations). Lines after the directive keep their own numbers.
//!   Mesa's compiler proper counts lines of the flattened text instead (so its
//!   compile errors after an `#include` are shifted); rgl does not copy that.
//! * Nesting is limited to [`MAX_INCLUDE_DEPTH`] strings (a self-including
//!   string is an error, never a stack overflow): the stack of included
//!   strings is an explicit vector, not recursion.
//! * Search (section 3.3 of the extension): an absolute path is looked up
//!   from the root; a relative one in `"…"` inside an included string first
//!   relative to the location of that string's parent, then, like `<…>` and
//!   `"…"` in the shader's own source, relative to each search path in order.
//!   The first location that exists decides: if it has no string, the
//!   directive fails.

use std::collections::HashMap;
use std::fmt;

use crate::diag::Error;
use crate::span::SourceLoc;

use super::directives::Pp;
use super::lexer::{Lexer, TKind, Tok};
use super::PpError;

/// Most strings open at once (the shader's source and included strings).
pub const MAX_INCLUDE_DEPTH: usize = 32;

/// The name of the extension, as `#extension` spells it.
pub const EXTENSION_NAME: &str = "GL_ARB_shading_language_include";

/// What a tree of named strings holds at one location.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IncludeLookup<'a> {
    /// The location does not exist in the tree.
    Missing,
    /// The location exists (some named string lies below it, or its string was
    /// deleted) but has no string.
    NoString,
    /// The string associated with the location.
    Found(&'a str),
}

/// The tree of named strings (`glNamedStringARB`), as the GL supplies it.
pub trait NamedStringTree: fmt::Debug + Send + Sync {
    /// What the tree holds at `location`, a canonical absolute location as
    /// [`tree_location`] returns it (`/` for the root, else `/a/b`).
    fn lookup(&self, location: &str) -> IncludeLookup<'_>;
}

/// What `#include` needs from the caller of the preprocessor.
#[derive(Clone, Copy, Debug)]
pub struct IncludeOptions<'a> {
    /// The named strings.
    pub tree: &'a dyn NamedStringTree,
    /// The search paths of `glCompileShaderIncludeARB`, as canonical locations
    /// ([`tree_location`]), in order.
    pub search_paths: &'a [String],
}

/// True for a character a path may hold besides `/`: the GLSL character set
/// (section 3.1) less the double quote, angle brackets, white space other than
/// the space, and `#` (Mesa's `valid_path_format` and glcpp's `INCLUDE` rule).
pub fn is_path_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "^. _+*%[](){}|&~=!:;,?-".contains(c)
}

/// Whether `path` is a valid path (Appendix A): only [`is_path_char`]
/// characters and `/`, no empty token (`//`), not empty, and no trailing `/`
/// unless `trailing_slash` (search paths may end with one).
pub fn valid_path(path: &str, trailing_slash: bool) -> bool {
    if path.is_empty() || path.contains("//") {
        return false;
    }
    if path.ends_with('/') && !trailing_slash {
        return false;
    }
    path.chars().all(|c| c == '/' || is_path_char(c))
}

/// The canonical tree location `path` walks to from `base` (a canonical
/// location; ignored when `path` starts with `/`): `..` goes to the parent
/// (staying at the root), `.` stays, any other token goes to that child.
pub fn tree_location(base: &str, path: &str) -> String {
    let mut tokens: Vec<&str> = Vec::new();
    if !path.starts_with('/') {
        tokens.extend(base.split('/').filter(|t| !t.is_empty()));
    }
    for token in path.split('/').filter(|t| !t.is_empty()) {
        match token {
            "." => {}
            ".." => {
                tokens.pop();
            }
            other => tokens.push(other),
        }
    }
    if tokens.is_empty() {
        return "/".to_owned();
    }
    let mut out = String::with_capacity(path.len() + base.len() + 1);
    for t in tokens {
        out.push('/');
        out.push_str(t);
    }
    out
}

/// The parent of a canonical location (the root's parent is the root).
pub fn parent_location(location: &str) -> &str {
    match location.rfind('/') {
        Some(0) | None => "/",
        Some(i) => &location[..i],
    }
}

/// A tree of named strings for tools and tests (`rglc`, the conformance
/// runners): every location with its string, if it has one. The GL state
/// tracker keeps its own.
#[derive(Clone, Debug, Default)]
pub struct StringTree {
    nodes: HashMap<String, Option<String>>,
}

impl StringTree {
    /// Associates `text` with the location of `name` (a valid path starting
    /// with `/`), creating the locations above it; false (and nothing done)
    /// for an invalid name.
    pub fn insert(&mut self, name: &str, text: &str) -> bool {
        if !name.starts_with('/') || !valid_path(name, false) {
            return false;
        }
        let location = tree_location("/", name);
        let mut prefix = String::with_capacity(location.len());
        for token in location.split('/').filter(|t| !t.is_empty()) {
            prefix.push('/');
            prefix.push_str(token);
            if prefix.len() < location.len() {
                self.nodes.entry(prefix.clone()).or_insert(None);
            }
        }
        self.nodes.insert(location, Some(text.to_owned()));
        true
    }
}

impl NamedStringTree for StringTree {
    fn lookup(&self, location: &str) -> IncludeLookup<'_> {
        match self.nodes.get(location) {
            None => IncludeLookup::Missing,
            Some(None) => IncludeLookup::NoString,
            Some(Some(text)) => IncludeLookup::Found(text),
        }
    }
}

/// A string suspended by an `#include` in it.
pub(super) struct IncludeFrame<'s> {
    /// Its lexer, positioned after the directive.
    lexer: Lexer<'s>,
    /// Its tree location (`None` for the shader's own source).
    location: Option<String>,
    /// Its `#line` adjustment of compiler-side locations.
    compiler_line_bump: u32,
    /// Open conditional groups below which the included string's own start.
    cond_base: usize,
}

/// The `#include` state of one preprocessing run.
#[derive(Default)]
pub(super) struct IncludeState<'s> {
    /// The named strings and search paths (none: every lookup fails).
    pub(super) options: Option<IncludeOptions<'s>>,
    /// The strings suspended by an `#include`, outermost first.
    pub(super) stack: Vec<IncludeFrame<'s>>,
    /// The tree location of the string being read (`None`: the source).
    pub(super) location: Option<String>,
    /// Conditional groups of enclosing strings (not closable from this one).
    pub(super) cond_base: usize,
    /// `#extension GL_ARB_shading_language_include` enabled it.
    pub(super) enabled: bool,
    /// The depth limit was reported.
    pub(super) limit_reported: bool,
}

impl<'s> Pp<'s> {
    /// `#include "path"` / `#include <path>`.
    pub(super) fn include_directive(&mut self, line: &[Tok]) {
        let loc = line[0].loc;
        let quoted = match line.get(2) {
            Some(t) if t.kind == TKind::Other && line.len() == 3 => self.int.get(t.sym).to_owned(),
            Some(t)
                if line.len() > 3 && t.kind == TKind::Other && is_header(self.int.get(t.sym)) =>
            {
                let extra = line[3].loc;
                self.error(extra, PpError::ExtraTokens);
                return;
            }
            _ => String::new(),
        };
        if !is_header(&quoted) {
            self.error(line.get(2).map_or(loc, |t| t.loc), PpError::IncludeSyntax);
            return;
        }
        let path = &quoted[1..quoted.len() - 1];
        let double_quoted = quoted.starts_with('"');
        let Some((text, location)) = self.resolve_include(path, double_quoted) else {
            self.error(loc, PpError::IncludeNotFound(format!("include {quoted}")));
            return;
        };
        if !self.include.enabled {
            // Mesa's compiler reports this at the start of the directive line.
            let at = SourceLoc {
                column: 1,
                ..self.compiler_loc(loc)
            };
            self.error(at, PpError::IncludeNotEnabled);
        }
        if self.include.stack.len() + 1 >= MAX_INCLUDE_DEPTH {
            if !self.include.limit_reported {
                self.include.limit_reported = true;
                self.error(
                    loc,
                    Error::Limit {
                        what: "#include nesting depth",
                        limit: MAX_INCLUDE_DEPTH,
                    },
                );
            }
            return;
        }
        let parent = std::mem::replace(&mut self.lex, Lexer::new(text));
        let frame = IncludeFrame {
            lexer: parent,
            location: self.include.location.replace(location),
            compiler_line_bump: self.take_compiler_line_bump(),
            cond_base: self.include.cond_base,
        };
        self.include.cond_base = self.cond_len();
        self.include.stack.push(frame);
    }

    /// Called at the end of the current string: closes an included string
    /// (its unterminated conditionals are errors) and resumes its includer.
    /// False at the end of the shader's own source.
    pub(super) fn leave_include(&mut self) -> bool {
        let Some(frame) = self.include.stack.pop() else {
            return false;
        };
        self.close_conditionals_above(self.include.cond_base);
        self.lex = frame.lexer;
        self.include.location = frame.location;
        self.include.cond_base = frame.cond_base;
        self.restore_compiler_line_bump(frame.compiler_line_bump);
        true
    }

    /// Looks `path` up following the search rules of the extension: the string
    /// and its tree location, or `None` when the directive fails.
    fn resolve_include(&self, path: &str, double_quoted: bool) -> Option<(&'s str, String)> {
        let options = self.include.options?;
        if !valid_path(path, false) {
            return None;
        }
        let found = |location: String| match options.tree.lookup(&location) {
            IncludeLookup::Found(text) => Some(Some((text, location))),
            IncludeLookup::NoString => Some(None),
            IncludeLookup::Missing => None,
        };
        if path.starts_with('/') {
            return found(tree_location("/", path)).flatten();
        }
        let current = match (&self.include.location, double_quoted) {
            (Some(location), true) => Some(parent_location(location)),
            _ => None,
        };
        current
            .into_iter()
            .chain(options.search_paths.iter().map(String::as_str))
            .find_map(|base| found(tree_location(base, path)))
            .flatten()
    }
}

/// True for `"…"` or `<…>` text with at least one character inside (Mesa's
/// glcpp accepts either closing character).
fn is_header(text: &str) -> bool {
    text.len() >= 3
        && (text.starts_with('"') || text.starts_with('<'))
        && (text.ends_with('"') || text.ends_with('>'))
        && text[1..text.len() - 1]
            .chars()
            .all(|c| c == '/' || is_path_char(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_walk_the_tree() {
        assert_eq!(tree_location("/", "/a/./b/../c"), "/a/c");
        assert_eq!(tree_location("/x/y", "z"), "/x/y/z");
        assert_eq!(tree_location("/x/y", "../../../z"), "/z");
        assert_eq!(tree_location("/", "/.."), "/");
        assert_eq!(parent_location("/a/b"), "/a");
        assert_eq!(parent_location("/a"), "/");
    }

    #[test]
    fn paths_are_validated() {
        assert!(valid_path(
            "/test path/]^. _A-Za-z0-9+*%[(){}|&~=!:;,?-]+/x",
            false
        ));
        assert!(!valid_path("/a//b", false));
        assert!(!valid_path("/a/", false));
        assert!(valid_path("/a/", true));
        assert!(valid_path("/", true));
        assert!(!valid_path("/", false));
        assert!(!valid_path("", true));
        assert!(!valid_path("/a\tb", false));
        assert!(!valid_path("/a\"b", false));
        assert!(!valid_path("/a<b", false));
        assert!(!valid_path("/a#b", false));
    }
}
