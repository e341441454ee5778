//! The qualifier rules of subroutines (GLSL 4.00 §4.3.9 and §6.1.2,
//! ARB_shader_subroutine): where `subroutine` may appear and which other
//! qualifiers go with it. The checker's `subroutine` module handles the types,
//! functions and uniforms themselves.

use super::{DeclContext, LayoutQualifiers, QualifierEnv, ResolvedQualifiers, StorageClass, Words};
use crate::diag::Diagnostic;
use crate::span::SourceLoc;

use super::QualifierError;

/// A function declared with `subroutine` (a subroutine type declaration, or a
/// function with a type list): only `layout(index = N)` may join it, and only
/// with explicit uniform locations (ARB_explicit_uniform_location: "the index
/// qualifier ... for subroutine functions").
pub(super) fn check_function(
    w: &Words,
    r: &ResolvedQualifiers,
    env: &QualifierEnv<'_>,
    loc: SourceLoc,
    diags: &mut Vec<Diagnostic>,
) {
    let other_word = w.constant.is_some()
        || w.attribute.is_some()
        || w.varying.is_some()
        || w.input.is_some()
        || w.output.is_some()
        || w.inout.is_some()
        || w.uniform.is_some()
        || w.shared.is_some()
        || w.buffer.is_some()
        || w.memory.is_some()
        || w.centroid.is_some()
        || w.invariant.is_some()
        || w.interpolation.is_some();
    let other_layout = LayoutQualifiers {
        index: None,
        ..r.layout.clone()
    } != LayoutQualifiers::default();
    if other_word || other_layout {
        diags.push(Diagnostic::error(
            loc,
            QualifierError::SubroutineFunctionQualifiers,
        ));
    }
    if r.layout.index.is_some() && !env.has_explicit_uniform_location() {
        diags.push(Diagnostic::error(
            loc,
            QualifierError::SubroutineIndexUnavailable,
        ));
    }
}

/// A variable declared with `subroutine`: only a global `subroutine uniform T
/// name;` exists (GLSL 4.00 §4.3.9), with a `location` but no `index`.
pub(super) fn check_variable(
    r: &ResolvedQualifiers,
    context: DeclContext,
    loc: SourceLoc,
    diags: &mut Vec<Diagnostic>,
) {
    if context != DeclContext::GlobalVariable || r.storage != StorageClass::Uniform {
        diags.push(Diagnostic::error(loc, QualifierError::SubroutineTarget));
        return;
    }
    if r.subroutine.as_ref().is_some_and(|types| !types.is_empty()) {
        diags.push(Diagnostic::error(
            loc,
            QualifierError::SubroutineUniformTypeList,
        ));
    }
    if r.layout.index.is_some() {
        diags.push(Diagnostic::error(
            loc,
            QualifierError::SubroutineUniformIndex,
        ));
    }
}
