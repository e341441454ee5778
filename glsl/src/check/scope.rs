//! The scoped symbol table (Mesa's `glsl_symbol_table`): variables, functions
//! and struct types share one namespace per scope; the innermost scope that
//! declares a name hides every outer declaration of it. GLSL 1.10 keeps
//! functions and variables in separate namespaces. Default precisions are
//! scoped the same way.

use std::rc::Rc;

use smallvec::SmallVec;

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

/// One open scope: the names it declared (so that leaving it can drop their
/// declarations) and its default precisions (keys: `float`, `int` and each
/// sampler type name).
#[derive(Clone, Debug, Default)]
struct Frame {
    declared: Vec<Rc<str>>,
    precisions: FxHashMap<String, Precision>,
}

/// The stack of scopes, outermost (global) first. Every name maps to its
/// declarations in the open scopes, innermost last, each with the depth of
/// its scope, so a lookup hashes the name once however deep the scope is.
/// A name whose declarations all went out of scope keeps its (empty) slot,
/// so the next function declaring it reuses the key.
#[derive(Clone, Debug)]
pub(crate) struct Scopes {
    names: FxHashMap<Rc<str>, SmallVec<[(u32, Entry); 1]>>,
    frames: Vec<Frame>,
    separate_function_namespace: bool,
}

impl Scopes {
    /// One global scope.
    pub fn new(version: Version) -> Self {
        Scopes {
            names: FxHashMap::default(),
            frames: vec![Frame::default()],
            separate_function_namespace: !version.is_es() && version.number == 110,
        }
    }

    /// Depth of the innermost scope (0: global).
    fn depth(&self) -> u32 {
        self.frames.len().saturating_sub(1) as u32
    }

    /// Enters a scope.
    pub fn push(&mut self) {
        self.frames.push(Frame::default());
    }

    /// Leaves a scope (never the global one).
    pub fn pop(&mut self) {
        if self.frames.len() > 1 {
            if let Some(frame) = self.frames.pop() {
                for name in &frame.declared {
                    if let Some(decls) = self.names.get_mut(&**name) {
                        decls.pop();
                    }
                }
            }
        }
    }

    /// The innermost entry for `name`.
    pub fn lookup(&self, name: &str) -> Option<&Entry> {
        self.names.get(name)?.last().map(|(_, e)| e)
    }

    /// The entry for `name` in the innermost scope only.
    pub fn lookup_current(&self, name: &str) -> Option<&Entry> {
        let depth = self.depth();
        match self.names.get(name)?.last() {
            Some((d, e)) if *d == depth => Some(e),
            _ => None,
        }
    }

    /// The entry for `name` in the innermost scope, mutably.
    fn current_mut(&mut self, name: &str) -> Option<&mut Entry> {
        let depth = self.depth();
        match self.names.get_mut(name)?.last_mut() {
            Some((d, e)) if *d == depth => Some(e),
            _ => None,
        }
    }

    /// Adds a declaration of `name` (not yet declared there) to the
    /// innermost scope.
    fn declare(&mut self, name: &str, entry: Entry) {
        let depth = self.depth();
        let key = match self.names.get_key_value(name) {
            Some((key, _)) => key.clone(),
            None => {
                let key: Rc<str> = Rc::from(name);
                self.names.insert(key.clone(), SmallVec::new());
                key
            }
        };
        if let Some(decls) = self.names.get_mut(&*key) {
            decls.push((depth, entry));
        }
        // The global scope is never left: its names need no record.
        if depth > 0 {
            if let Some(frame) = self.frames.last_mut() {
                frame.declared.push(key);
            }
        }
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
        if let Some(existing) = self.current_mut(name) {
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
        self.declare(name, entry);
        true
    }

    /// Declares a function in the innermost scope; false on a conflict with
    /// a variable or type of the same scope.
    pub fn add_function(&mut self, name: &str, function: Handle<Function>) -> bool {
        let separate = self.separate_function_namespace;
        if let Some(existing) = self.current_mut(name) {
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
        self.declare(
            name,
            Entry {
                function: Some(function),
                ..Entry::default()
            },
        );
        true
    }

    /// Declares a struct type; false if the name is taken in this scope.
    pub fn add_type(&mut self, name: &str, ty: Type) -> bool {
        if self.lookup_current(name).is_some() {
            return false;
        }
        self.declare(
            name,
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
