//! Qualifier resolution and validation: turns the qualifier list of a
//! declaration into [`ResolvedQualifiers`] and reports every qualifier that the
//! version, stage or declaration context does not allow; also checks which types
//! a storage class may carry ([`check_storage_type`]).
//!
//! Pure functions over the AST and types, called by the checker.

use crate::ast::{Interpolation, Precision, TypeQualifier};
use crate::diag::Diagnostic;
use crate::hir::{BlockPacking, GsPrimitive, MatrixLayout};
use crate::span::SourceLoc;
use crate::types::{StructArena, Type};
use crate::version::{Stage, Version};

/// Qualifier errors (filled in by the qualifier rules).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum QualifierError {
    /// A qualifier that is not allowed in this context.
    #[error("{0} cannot be used here")]
    NotAllowed(String),
}

/// Where the qualified thing is declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclContext {
    /// A global variable declaration.
    GlobalVariable,
    /// A variable declared in a function body (or a `for`/`while` condition).
    LocalVariable,
    /// A function parameter.
    FunctionParameter,
    /// A function return type.
    FunctionReturn,
    /// A struct member.
    StructMember,
    /// A member of an interface block with the given storage.
    BlockMember(StorageClass),
    /// The interface block itself (`uniform Block { .. }`).
    Block,
    /// A qualifier-only declaration (`layout(triangles) in;`, `layout(std140) uniform;`).
    QualifierOnly,
}

/// Resolved storage class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StorageClass {
    /// No storage qualifier (ordinary variable).
    #[default]
    None,
    /// `const`
    Const,
    /// Stage input: `in`, `attribute`, or `varying` in a fragment shader.
    In,
    /// Stage output: `out`, or `varying` in a vertex/geometry shader.
    Out,
    /// `uniform`
    Uniform,
    /// Parameter `in` (possibly with `const`: see [`ResolvedQualifiers::is_const`]).
    ParamIn,
    /// Parameter `out`
    ParamOut,
    /// Parameter `inout`
    ParamInOut,
}

/// Resolved `layout(...)` contents.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LayoutQualifiers {
    /// `location = N`
    pub location: Option<i32>,
    /// `index = N`
    pub index: Option<i32>,
    /// `binding = N`
    pub binding: Option<i32>,
    /// `std140` / `shared` / `packed`
    pub packing: Option<BlockPacking>,
    /// `row_major` / `column_major`
    pub matrix_layout: MatrixLayout,
    /// `origin_upper_left`
    pub origin_upper_left: bool,
    /// `pixel_center_integer`
    pub pixel_center_integer: bool,
    /// `early_fragment_tests`
    pub early_fragment_tests: bool,
    /// GS input or output primitive.
    pub primitive: Option<GsPrimitive>,
    /// `max_vertices = N`
    pub max_vertices: Option<u32>,
    /// `invocations = N`
    pub invocations: Option<u32>,
}

/// Everything a qualifier list says, validated.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResolvedQualifiers {
    /// Storage class.
    pub storage: StorageClass,
    /// `const` was written (alone: a constant; on a parameter: `const in`).
    pub is_const: bool,
    /// Written as `attribute`.
    pub is_attribute: bool,
    /// Written as `varying`.
    pub is_varying: bool,
    /// `centroid`
    pub centroid: bool,
    /// `invariant`
    pub invariant: bool,
    /// Interpolation qualifier.
    pub interpolation: Option<Interpolation>,
    /// Precision qualifier.
    pub precision: Option<Precision>,
    /// Layout contents.
    pub layout: LayoutQualifiers,
    /// Location of the qualifier list (for later diagnostics).
    pub loc: SourceLoc,
}

/// Language context of the check.
#[derive(Clone, Copy, Debug)]
pub struct QualifierEnv<'a> {
    /// Version and profile.
    pub version: Version,
    /// Stage.
    pub stage: Stage,
    /// Enabled extensions.
    pub extensions: &'a [String],
}

/// Resolves and validates a qualifier list in a context.
pub fn resolve_qualifiers(
    qualifier: Option<&TypeQualifier>,
    context: DeclContext,
    env: &QualifierEnv<'_>,
) -> (ResolvedQualifiers, Vec<Diagnostic>) {
    let _ = (context, env);
    let resolved = ResolvedQualifiers {
        loc: qualifier.map(|q| q.loc).unwrap_or_default(),
        ..Default::default()
    };
    (resolved, Vec::new())
}

/// Checks that a variable of type `ty` may have the resolved storage class here
/// (e.g. no `bool` attributes, integer fragment inputs need `flat`, no arrays
/// of arrays before 4.30, samplers only as uniforms or parameters, …).
pub fn check_storage_type(
    qualifiers: &ResolvedQualifiers,
    ty: &Type,
    structs: &StructArena,
    context: DeclContext,
    env: &QualifierEnv<'_>,
    loc: SourceLoc,
) -> Vec<Diagnostic> {
    let _ = (qualifiers, ty, structs, context, env, loc);
    Vec::new()
}
