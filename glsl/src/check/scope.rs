//! The scoped symbol table (Mesa's `glsl_symbol_table`): variables, functions
//! and struct types share one namespace per scope; the innermost scope that
//! declares a name hides every outer declaration of it. GLSL 1.10 keeps
//! functions and variables in separate namespaces. Default precisions are
//! scoped the same way.

use crate::hash::FxHashMap;

use crate::arena::Handle;
use crate::ast::Precision;
use crate::hir::{Function, Variable};
use crate::types::Type;
use crate::version::Version;

/// What one scope knows about one name.
#[derive(Clone, Debug, Default)]
pub(crate) struct Entry {
    /// A variable.
    pub variable: Option<Handle<Variable>>,
    /// A function (user-defined overloads).
    pub function: Option<Handle<Function>>,
    /// A struct type.
    pub ty: Option<Type>,
}

/// Default precision keys: `float`, `int` and each sampler type name.
#[derive(Clone, Debug, Default)]
struct Frame {
    names: FxHashMap<String, Entry>,
    precisions: FxHashMap<String, Precision>,
}

/// The stack of scopes, outermost (global) first.
#[derive(Clone, Debug)]
pub(crate) struct Scopes {
    frames: Vec<Frame>,
    separate_function_namespace: bool,
}

impl Scopes {
    /// One global scope.
    pub fn new(version: Version) -> Self {
        Scopes {
            frames: vec![Frame::default()],
            separate_function_namespace: !version.is_es() && version.number == 110,
        }
    }

    /// Enters a scope.
    pub fn push(&mut self) {
        self.frames.push(Frame::default());
    }

    /// Leaves a scope (never the global one).
    pub fn pop(&mut self) {
        if self.frames.len() > 1 {
            self.frames.pop();
        }
    }

    /// The innermost entry for `name`.
    pub fn lookup(&self, name: &str) -> Option<&Entry> {
        self.frames.iter().rev().find_map(|f| f.names.get(name))
    }

    /// The entry for `name` in the innermost scope only.
    pub fn lookup_current(&self, name: &str) -> Option<&Entry> {
        self.frames.last().and_then(|f| f.names.get(name))
    }

    /// The variable `name` as seen here.
    pub fn variable(&self, name: &str) -> Option<Handle<Variable>> {
        self.lookup(name).and_then(|e| e.variable)
    }

    /// The struct type `name` as seen here.
    pub fn struct_type(&self, name: &str) -> Option<Type> {
        self.lookup(name).and_then(|e| e.ty.clone())
    }

    /// Declares a variable in the innermost scope; false if the name is
    /// already declared there (the caller reports the redeclaration).
    pub fn add_variable(&mut self, name: &str, var: Handle<Variable>) -> bool {
        let separate = self.separate_function_namespace;
        // Only GLSL 1.10's separate function namespace carries an outer function
        // into the new entry; other versions need no lookup through every scope.
        let outer_function = if separate {
            self.lookup(name).and_then(|e| e.function)
        } else {
            None
        };
        let Some(frame) = self.frames.last_mut() else {
            return false;
        };
        if let Some(existing) = frame.names.get_mut(name) {
            if separate && existing.variable.is_none() && existing.ty.is_none() {
                existing.variable = Some(var);
                return true;
            }
            return false;
        }
        let mut entry = Entry {
            variable: Some(var),
            ..Entry::default()
        };
        if separate {
            entry.function = outer_function;
        }
        frame.names.insert(name.to_string(), entry);
        true
    }

    /// Declares a function in the innermost scope; false on a conflict with
    /// a variable or type of the same scope.
    pub fn add_function(&mut self, name: &str, function: Handle<Function>) -> bool {
        let separate = self.separate_function_namespace;
        let Some(frame) = self.frames.last_mut() else {
            return false;
        };
        if let Some(existing) = frame.names.get_mut(name) {
            if existing.function.is_some() {
                existing.function = Some(function);
                return true;
            }
            if separate && existing.ty.is_none() {
                existing.function = Some(function);
                return true;
            }
            return false;
        }
        frame.names.insert(
            name.to_string(),
            Entry {
                function: Some(function),
                ..Entry::default()
            },
        );
        true
    }

    /// Declares a struct type; false if the name is taken in this scope.
    pub fn add_type(&mut self, name: &str, ty: Type) -> bool {
        let Some(frame) = self.frames.last_mut() else {
            return false;
        };
        if frame.names.contains_key(name) {
            return false;
        }
        frame.names.insert(
            name.to_string(),
            Entry {
                ty: Some(ty),
                ..Entry::default()
            },
        );
        true
    }

    /// Sets a default precision in the innermost scope.
    pub fn set_default_precision(&mut self, type_name: &str, precision: Precision) {
        if let Some(frame) = self.frames.last_mut() {
            frame.precisions.insert(type_name.to_string(), precision);
        }
    }

    /// The default precision for a type name, searching outwards.
    pub fn default_precision(&self, type_name: &str) -> Option<Precision> {
        self.frames
            .iter()
            .rev()
            .find_map(|f| f.precisions.get(type_name).copied())
    }
}
