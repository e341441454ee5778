//! Named strings (`GL_ARB_shading_language_include`): the tree of strings
//! `#include` reads, `glNamedStringARB`, `glDeleteNamedStringARB`,
//! `glIsNamedStringARB`, `glGetNamedStringARB`, `glGetNamedStringivARB`, and
//! `glCompileShaderIncludeARB` (section 2.11.1 and 6.1.10 of the extension).
//!
//! The tree maps canonical tree locations (`rgl_glsl::pp::include::tree_location`)
//! to an optional string: defining `/a/b/c` also creates `/a` and `/a/b`
//! without strings, and deleting a string leaves its location in the tree (as
//! Mesa's `_mesa_DeleteNamedStringARB` does), so a later `#include` of it
//! fails without trying further search paths. A compile reads a snapshot of
//! the tree (the spec makes named strings invariant during a compile; the
//! snapshot is shared, and copied only if the tree changes while a compile
//! still holds it).
//!
//! Errors follow the spec's text; where it names none, the GL rules of
//! section 2.5: a `type` other than `SHADER_INCLUDE_ARB` is `INVALID_ENUM`
//! (Mesa raises `INVALID_VALUE` there), an unknown `pname` is `INVALID_ENUM`.
//! Search paths of `glCompileShaderIncludeARB` may end with `/` (revision 8
//! of the spec; Mesa refuses it).

use std::collections::HashMap;
use std::sync::Arc;

use rgl_glsl::pp::include::{tree_location, valid_path, IncludeOptions};
use rgl_glsl::pp::{IncludeLookup, NamedStringTree};

use crate::error::{GlError, GlResult};
use crate::gl;
use crate::names::Shader;
use crate::Context;

/// One named string.
#[derive(Clone, Debug)]
struct NamedString {
    /// The `type` of `glNamedStringARB` (always `SHADER_INCLUDE_ARB`).
    type_: u32,
    /// The string.
    text: Arc<str>,
}

/// The tree of named strings: every location, with its string if it has one.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tree {
    nodes: HashMap<String, Option<NamedString>>,
}

impl NamedStringTree for Tree {
    fn lookup(&self, location: &str) -> IncludeLookup<'_> {
        match self.nodes.get(location) {
            None => IncludeLookup::Missing,
            Some(None) => IncludeLookup::NoString,
            Some(Some(s)) => IncludeLookup::Found(&s.text),
        }
    }
}

impl Tree {
    fn string(&self, location: &str) -> Option<&NamedString> {
        self.nodes.get(location).and_then(Option::as_ref)
    }
}

/// The named strings of a context.
#[derive(Clone, Debug, Default)]
pub(crate) struct NamedStrings {
    tree: Arc<Tree>,
}

/// What a compile reads for `#include`: the tree as it was when the compile
/// was issued, and the search paths.
#[derive(Debug)]
pub(crate) struct IncludeSnapshot {
    tree: Arc<Tree>,
    search_paths: Vec<String>,
}

impl IncludeSnapshot {
    /// The preprocessor's view of the snapshot.
    pub(crate) fn options(&self) -> IncludeOptions<'_> {
        IncludeOptions {
            tree: &*self.tree,
            search_paths: &self.search_paths,
        }
    }

    /// True when `#include` can find nothing: no location in the tree and no
    /// search path (the compile is then the same as without the extension).
    pub(crate) fn is_empty(&self) -> bool {
        self.tree.nodes.is_empty() && self.search_paths.is_empty()
    }
}

/// The tree location of an API name: a valid path starting with `/`
/// (`INVALID_VALUE` otherwise).
fn location_of(name: &str) -> GlResult<String> {
    if name.starts_with('/') && valid_path(name, false) {
        Ok(tree_location("/", name))
    } else {
        Err(GlError::InvalidValue)
    }
}

impl NamedStrings {
    /// A snapshot of the tree with the search paths of one compile.
    pub(crate) fn snapshot(&self, search_paths: Vec<String>) -> IncludeSnapshot {
        IncludeSnapshot {
            tree: Arc::clone(&self.tree),
            search_paths,
        }
    }

    fn define(&mut self, location: String, string: NamedString) {
        let tree = Arc::make_mut(&mut self.tree);
        let mut prefix = String::with_capacity(location.len());
        for token in location.split('/').filter(|t| !t.is_empty()) {
            prefix.push('/');
            prefix.push_str(token);
            if prefix.len() < location.len() {
                tree.nodes.entry(prefix.clone()).or_insert(None);
            }
        }
        tree.nodes.insert(location, Some(string));
    }

    fn existing(&self, name: &str) -> GlResult<(String, &NamedString)> {
        let location = location_of(name)?;
        match self.tree.string(&location) {
            Some(s) => Ok((location, s)),
            None => Err(GlError::InvalidOperation),
        }
    }
}

impl Context {
    /// `glNamedStringARB`: associates `string` with the tree location of `name`
    /// (replacing any string there).
    pub fn named_string(&mut self, type_: u32, name: &str, string: &str) {
        if type_ != gl::SHADER_INCLUDE_ARB {
            return self.record(GlError::InvalidEnum);
        }
        match location_of(name) {
            Ok(location) => self.named_strings.define(
                location,
                NamedString {
                    type_,
                    text: Arc::from(string),
                },
            ),
            Err(e) => self.record(e),
        }
    }

    /// `glDeleteNamedStringARB`: removes the string of `name`'s location (the
    /// location stays in the tree).
    pub fn delete_named_string(&mut self, name: &str) {
        let r = self.named_strings.existing(name).map(|(l, _)| l);
        if let Some(location) = self.check(r) {
            let tree = Arc::make_mut(&mut self.named_strings.tree);
            tree.nodes.insert(location, None);
        }
    }

    /// `glIsNamedStringARB`: whether `name`'s location has a string (false,
    /// with no error, for an invalid name).
    pub fn is_named_string(&mut self, name: &str) -> bool {
        location_of(name).is_ok_and(|l| self.named_strings.tree.string(&l).is_some())
    }

    /// `glGetNamedStringARB`: the string of `name` (empty on error).
    pub fn get_named_string(&mut self, name: &str) -> String {
        let r = self
            .named_strings
            .existing(name)
            .map(|(_, s)| s.text.to_string());
        self.check(r).unwrap_or_default()
    }

    /// `glGetNamedStringivARB`: `NAMED_STRING_LENGTH_ARB` (the length with a
    /// null terminator) or `NAMED_STRING_TYPE_ARB` of `name`'s string (0 on
    /// error).
    pub fn get_named_string_iv(&mut self, name: &str, pname: u32) -> i32 {
        let r = self
            .named_strings
            .existing(name)
            .and_then(|(_, s)| match pname {
                gl::NAMED_STRING_LENGTH_ARB => {
                    Ok(i32::try_from(s.text.len() + 1).unwrap_or(i32::MAX))
                }
                gl::NAMED_STRING_TYPE_ARB => Ok(s.type_ as i32),
                _ => Err(GlError::InvalidEnum),
            });
        self.check(r).unwrap_or(0)
    }

    /// `glCompileShaderIncludeARB`: compiles `shader` like `glCompileShader`,
    /// `#include` searching relative paths under `paths` in order (each a
    /// valid path starting with `/`, else `INVALID_VALUE`; a trailing `/` is
    /// allowed; the paths are checked before the shader, as in Mesa).
    pub fn compile_shader_include(&mut self, shader: Shader, paths: &[&str]) {
        let mut search_paths = Vec::with_capacity(paths.len());
        for path in paths {
            if !path.starts_with('/') || !valid_path(path, true) {
                return self.record(GlError::InvalidValue);
            }
            search_paths.push(tree_location("/", path));
        }
        // The extension's rule (Mesa's too): INVALID_OPERATION for any name
        // that is not a shader, where glCompileShader raises INVALID_VALUE for
        // a name that is not an object.
        if self.shader_obj(shader).is_err() {
            return self.record(GlError::InvalidOperation);
        }
        let includes = self.named_strings.snapshot(search_paths);
        self.compile_shader_with(shader, includes);
    }
}
