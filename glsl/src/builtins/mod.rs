//! Built-in functions, variables and constants of GLSL 1.10–3.30 and ES
//! 1.00/3.00, declared once in tables with their availability (version, profile,
//! stage, extension), plus the expansion of each built-in function into GLSL IR
//! used by `lower_builtins` and by constant folding.
//!
//! The checker uses [`find_functions`] for overload resolution and
//! [`lookup_variable`] to resolve `gl_*` names; `lower_builtins` uses
//! [`expand_call`]; constant folding uses [`expand_value`].
//!
//! Layout: `functions.rs` holds the generic rows (`genType`, `vec`, `mat`, …)
//! and the availability predicates, `texture.rs` generates the lookup family
//! per sampler type and builds `ir_texture` nodes, `expand.rs` and `matrix.rs`
//! expand calls into IR, `integer.rs` folds the integer functions, `variables.rs` answers `gl_*` names. The table is
//! built once (a `OnceLock`) and indexed by name.
//!
//! Availability follows Mesa (`builtin_functions.cpp`,
//! `builtin_variables.cpp`) where it differs from a literal reading of the
//! specs: the legacy lookups (`texture2D`, `shadow2DRect`, …) and
//! `gl_FragColor`/`gl_FragData` stay visible in desktop core profiles (Mesa
//! moves them to compatibility only at GLSL 4.20), while the fixed-function
//! state (`ftransform`, `gl_ModelViewMatrix`, `gl_Vertex`, `gl_MaxLights`, …)
//! needs a compatibility profile or `GL_ARB_compatibility`; rectangle textures
//! are always enabled on desktop; `determinant` exists from 1.20.

mod expand;
mod functions;
mod image;
mod integer;
mod interpolate;
mod matrix;
mod texture;
pub mod variables;

use crate::arena::Handle;
use crate::hir::{Expr, Module, Stmt, Variable};
use crate::types::{StructArena, Type};
use crate::version::{Stage, Version};

/// Identifies one built-in function signature in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BuiltinId(pub u32);

/// Direction of a built-in parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamDirection {
    /// `in`
    In,
    /// `out` (e.g. `modf`'s second parameter)
    Out,
    /// `inout`
    InOut,
}

/// One built-in overload.
#[derive(Clone, Debug, PartialEq)]
pub struct BuiltinSignature {
    /// Table identity.
    pub id: BuiltinId,
    /// Function name.
    pub name: &'static str,
    /// Return type.
    pub return_type: Type,
    /// Parameter types and directions.
    pub parameters: &'static [(Type, ParamDirection)],
    /// May appear in constant expressions with constant arguments (GLSL 1.20+):
    /// false for texture lookups, derivatives, noise and functions with `out`
    /// parameters.
    pub constant_foldable: bool,
}

/// The context that decides which built-ins exist.
#[derive(Clone, Copy, Debug)]
pub struct Availability<'a> {
    /// Version and profile.
    pub version: Version,
    /// Stage.
    pub stage: Stage,
    /// Extensions enabled by `#extension` (`enable`/`require`/`warn`).
    pub extensions: &'a [String],
}

/// All overloads of the built-in function `name` visible in `avail`; empty if
/// `name` is not a built-in function there.
pub fn find_functions(name: &str, avail: &Availability<'_>) -> Vec<BuiltinSignature> {
    let table = functions::table();
    let Some(indices) = table.by_name.get(name) else {
        return Vec::new();
    };
    indices
        .iter()
        .filter(|&&index| table.entries[index as usize].is_available(avail))
        .filter_map(|&index| signature(BuiltinId(index)))
        .collect()
}

/// True if some overload of `name` is visible in `avail` (cheaper than
/// [`find_functions`] when only existence matters, e.g. to tell a built-in
/// name from an undeclared one).
pub fn is_builtin_function(name: &str, avail: &Availability<'_>) -> bool {
    let table = functions::table();
    table.by_name.get(name).is_some_and(|indices| {
        indices
            .iter()
            .any(|&i| table.entries[i as usize].is_available(avail))
    })
}

/// True if argument `index` of built-in `id` must be a constant expression:
/// True for built-ins with no GLSL IR expansion (the GLSL 4.00 integer
/// functions, `frexp`, `ldexp`): `lower_builtins` keeps their calls for later
/// stages, and only the constant-foldable ones fold on constant arguments.
pub fn keeps_call(id: BuiltinId) -> bool {
    functions::table()
        .entries
        .get(id.0 as usize)
        .is_some_and(|e| functions::KEPT_CALLS.contains(&e.name))
}

/// One atomic counter function (GLSL 4.20 §8.10, ARB_shader_atomic_counter_ops).
///
/// The front end leaves every counter operation in the IR as one
/// `Stmt::Call` of the built-in signature (a [`keeps_call`] built-in):
/// * `args[0]` is the counter: a `VarRef` of an `atomic_uint` uniform, or an
///   `ArrayRef` chain over an array of them (constant or dynamic indices).
///   The uniform's `hir::Variable::binding` is the atomic counter buffer
///   binding and `hir::Variable::atomic_offset` the byte offset of element 0;
///   array elements are 4 bytes apart, flattened row-major for arrays of
///   arrays. Inside a user function whose parameter is an `atomic_uint` the
///   argument is that `in` parameter, so lowering needs the call inlined first
///   (as Mesa's `lower_shared_reference`/`nir_lower_atomics_to_ssbo` see
///   inlined code).
/// * `args[1..]` are the `uint` operands: `data` for the two-operand forms,
///   `compare, data` for [`AtomicCounterOp::CompSwap`].
/// * `return_deref`, when present, receives the `uint` result (see each
///   variant).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicCounterOp {
    /// `atomicCounterIncrement`: +1, returns the value before.
    Increment,
    /// `atomicCounterDecrement`: -1, returns the value after (GLSL 4.20 §8.10).
    Decrement,
    /// `atomicCounter`: reads the value.
    Read,
    /// `atomicCounterAddARB`: + data, returns the value before.
    Add,
    /// `atomicCounterSubtractARB`: - data, returns the value before.
    Subtract,
    /// `atomicCounterMinARB`: unsigned min, returns the value before.
    Min,
    /// `atomicCounterMaxARB`: unsigned max, returns the value before.
    Max,
    /// `atomicCounterAndARB`, returns the value before.
    And,
    /// `atomicCounterOrARB`, returns the value before.
    Or,
    /// `atomicCounterXorARB`, returns the value before.
    Xor,
    /// `atomicCounterExchangeARB`: stores data, returns the value before.
    Exchange,
    /// `atomicCounterCompSwapARB(c, compare, data)`: stores data if the value
    /// equals compare, returns the value before.
    CompSwap,
}

/// The counter operation a built-in function name denotes (see
/// [`AtomicCounterOp`] for the call's shape), `None` for other names.
pub fn atomic_counter_op(name: &str) -> Option<AtomicCounterOp> {
    use AtomicCounterOp::*;
    Some(match name {
        "atomicCounterIncrement" => Increment,
        "atomicCounterDecrement" => Decrement,
        "atomicCounter" => Read,
        "atomicCounterAddARB" => Add,
        "atomicCounterSubtractARB" => Subtract,
        "atomicCounterMinARB" => Min,
        "atomicCounterMaxARB" => Max,
        "atomicCounterAndARB" => And,
        "atomicCounterOrARB" => Or,
        "atomicCounterXorARB" => Xor,
        "atomicCounterExchangeARB" => Exchange,
        "atomicCounterCompSwapARB" => CompSwap,
        _ => return None,
    })
}

/// Mesa declares the `offset` parameter of every texture lookup with an offset
/// (`textureOffset`, `texelFetchOffset`, `textureProjGradOffset`, …) as
/// `const in`, and rejects a call whose actual argument is not constant.
pub fn requires_constant_argument(id: BuiltinId, index: usize) -> bool {
    parameter_name(id, index) == Some("offset")
}

/// Mesa's name of parameter `index` of texture lookup `id` (`sampler`, `P`,
/// `lod`, `bias`, `offset`, `dPdx`, `dPdy`, `sample`), for diagnostics;
/// `None` for other built-ins or an out-of-range index.
pub fn parameter_name(id: BuiltinId, index: usize) -> Option<&'static str> {
    let entry = functions::table().entries.get(id.0 as usize)?;
    match entry.implementation {
        functions::Implementation::Texture(form) => {
            texture::parameter_names(form).get(index).copied()
        }
        functions::Implementation::Generic => None,
    }
}

/// Every built-in function name in the table (visible somewhere), sorted.
pub fn all_function_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = functions::table().by_name.keys().copied().collect();
    names.sort_unstable();
    names
}

/// Every built-in variable or constant name [`lookup_variable`] may answer.
pub fn all_variable_names() -> &'static [&'static str] {
    variables::NAMES
}

/// The signature for an id returned by [`find_functions`].
pub fn signature(id: BuiltinId) -> Option<BuiltinSignature> {
    let entry = functions::table().entries.get(id.0 as usize)?;
    Some(BuiltinSignature {
        id,
        name: entry.name,
        return_type: entry.return_type.clone(),
        parameters: &entry.parameters,
        constant_foldable: entry.constant_foldable,
    })
}

/// The built-in variable or constant `name` (`gl_Position`, `gl_MaxLights`,
/// `gl_LightSource`, …) as visible in `avail`, ready to be added to a module.
/// Struct types it needs (`gl_LightSourceParameters`, …) are added to `structs`.
pub fn lookup_variable(
    name: &str,
    avail: &Availability<'_>,
    structs: &mut StructArena,
) -> Option<Variable> {
    variables::lookup(name, avail, structs)
}

/// The built-in struct type `name` (`gl_DepthRangeParameters`, and the
/// compatibility-profile state structs like `gl_LightSourceParameters`) when it
/// is visible in `avail`; the body is added to `structs` once and shared with
/// the built-in uniforms of that type.
pub fn lookup_struct(
    name: &str,
    avail: &Availability<'_>,
    structs: &mut StructArena,
) -> Option<Type> {
    variables::lookup_struct(name, avail, structs)
}

/// Expands a call of built-in `id` into statements that compute it: the
/// result is assigned to `return_deref` (a dereference) when given, `out`
/// arguments (dereferences in `args`) are written.
pub fn expand_call(
    id: BuiltinId,
    module: &mut Module,
    return_deref: Option<Handle<Expr>>,
    args: &[Handle<Expr>],
) -> Vec<Handle<Stmt>> {
    expand::expand_call(id, module, return_deref, args)
}

/// The value of a call of built-in `id` as one expression tree over `args`,
/// for constant folding; `None` for built-ins that are not
/// [`BuiltinSignature::constant_foldable`].
pub fn expand_value(
    id: BuiltinId,
    module: &mut Module,
    args: &[Handle<Expr>],
) -> Option<Handle<Expr>> {
    expand::expand_value(id, module, args)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_counter_function_has_an_op() {
        let names: Vec<&str> = all_function_names()
            .into_iter()
            .filter(|n| n.starts_with("atomicCounter"))
            .collect();
        assert_eq!(names.len(), 12);
        for name in names {
            assert!(atomic_counter_op(name).is_some(), "{name}");
            assert!(functions::KEPT_CALLS.contains(&name), "{name}");
        }
        assert_eq!(atomic_counter_op("atomicAdd"), None);
    }
}
