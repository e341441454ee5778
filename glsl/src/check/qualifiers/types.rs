//! Which types a storage class may carry: attribute / vertex-input types,
//! varying types, fragment outputs, geometry inputs, `flat` on integer fragment
//! inputs, opaque types only as uniforms and `in` parameters, precision only on
//! numeric and opaque types, and the layout rules that depend on the type or the
//! variable's name (`gl_FragCoord`, `gl_FragDepth`, `binding`).

use crate::ast::Interpolation;
use crate::diag::Diagnostic;
use crate::span::SourceLoc;
use crate::types::{ScalarKind, StructArena, Type};
use crate::version::Stage;

use super::{
    is_stage_interface, version_error, version_name, DeclContext, QualifierEnv, QualifierError,
    ResolvedQualifiers, StorageClass,
};

/// Checks that a variable of type `ty` may have the resolved storage class here
/// (e.g. no `bool` attributes, integer fragment inputs need `flat`, samplers
/// only as uniforms or `in` parameters, …). Rules that need the variable's name
/// are approximated from its type; [`check_variable`] applies them exactly.
pub fn check_storage_type(
    qualifiers: &ResolvedQualifiers,
    ty: &Type,
    structs: &StructArena,
    context: DeclContext,
    env: &QualifierEnv<'_>,
    loc: SourceLoc,
) -> Vec<Diagnostic> {
    check(qualifiers, None, ty, structs, context, env, loc)
}

/// [`check_storage_type`] for a named variable, parameter or member: also
/// checks that `origin_upper_left`/`pixel_center_integer` are only on
/// `gl_FragCoord` and depth layouts only on `gl_FragDepth`.
pub fn check_variable(
    qualifiers: &ResolvedQualifiers,
    name: &str,
    ty: &Type,
    structs: &StructArena,
    context: DeclContext,
    env: &QualifierEnv<'_>,
    loc: SourceLoc,
) -> Vec<Diagnostic> {
    check(qualifiers, Some(name), ty, structs, context, env, loc)
}

/// The element type of an array (of arrays), or the type itself.
fn without_array(ty: &Type) -> &Type {
    let mut t = ty;
    while let Type::Array(elem, _) = t {
        t = elem;
    }
    t
}

/// True if the type is or contains an integer.
fn contains_integer(ty: &Type, structs: &StructArena, depth: u32) -> bool {
    if depth > 64 {
        return false;
    }
    match ty {
        Type::Scalar(k) | Type::Vector(k, _) => k.is_integer(),
        Type::Array(elem, _) => contains_integer(elem, structs, depth + 1),
        Type::Struct(h) => structs.get(*h).is_some_and(|s| {
            s.fields
                .iter()
                .any(|f| contains_integer(&f.ty, structs, depth + 1))
        }),
        _ => false,
    }
}

/// True if a struct type has a member that is an array or a struct.
fn struct_has_aggregate_member(ty: &Type, structs: &StructArena) -> bool {
    match ty {
        Type::Struct(h) => structs.get(*h).is_some_and(|s| {
            s.fields
                .iter()
                .any(|f| matches!(f.ty, Type::Array(..) | Type::Struct(_)))
        }),
        _ => false,
    }
}

/// Mesa's `precision_qualifier_allowed`: float, int, uint (scalars, vectors,
/// matrices) and opaque types, or arrays of these.
fn precision_allowed(ty: &Type) -> bool {
    match without_array(ty) {
        Type::Scalar(k) | Type::Vector(k, _) => *k != ScalarKind::Bool,
        Type::Matrix { .. }
        | Type::Sampler(_)
        | Type::Image(_)
        | Type::AtomicUint
        | Type::Error => true,
        _ => false,
    }
}

fn check(
    q: &ResolvedQualifiers,
    name: Option<&str>,
    ty: &Type,
    structs: &StructArena,
    context: DeclContext,
    env: &QualifierEnv<'_>,
    loc: SourceLoc,
) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    if ty.is_error() {
        return diags;
    }
    let mut error = |e: QualifierError| diags.push(Diagnostic::error(loc, e));
    let base = without_array(ty);
    let base_name = || base.display(structs).to_string();
    let storage = q.storage;
    let stage = env.stage;

    if q.precision.is_some() && context != DeclContext::FunctionReturn && !precision_allowed(ty) {
        error(QualifierError::PrecisionType);
    }

    if ty.contains_opaque(structs) {
        match context {
            DeclContext::GlobalVariable | DeclContext::LocalVariable => {
                if storage != StorageClass::Uniform {
                    error(QualifierError::OpaqueStorage);
                    error(QualifierError::OpaqueNotUniform);
                }
            }
            DeclContext::FunctionParameter => {
                if matches!(storage, StorageClass::ParamOut | StorageClass::ParamInOut) {
                    error(QualifierError::OpaqueOutParameter);
                }
            }
            DeclContext::BlockMember(_) => error(QualifierError::OpaqueBlockMember),
            DeclContext::FunctionReturn => error(QualifierError::OpaqueReturn),
            DeclContext::StructMember => {
                // GLSL 4.20 §4.1.7.1: counters are uniform variables or
                // arrays of them, never struct members.
                if ty.contains_atomic(structs) {
                    error(QualifierError::AtomicInStruct);
                }
            }
            DeclContext::Block | DeclContext::QualifierOnly => {}
        }
    }

    if context == DeclContext::FunctionParameter
        && ty.is_array()
        && matches!(storage, StorageClass::ParamOut | StorageClass::ParamInOut)
    {
        if let Some(e) = version_error(env, 120, 100, "arrays cannot be out or inout parameters") {
            error(e);
        }
    }

    // A geometry shader input block, like any geometry input, is per vertex.
    if context == DeclContext::Block
        && stage == Stage::Geometry
        && storage == StorageClass::In
        && !ty.is_array()
    {
        error(QualifierError::GsInputNotArray);
    }

    let global = context == DeclContext::GlobalVariable;
    if global && is_stage_interface(storage, stage) {
        match base {
            Type::Scalar(ScalarKind::Float)
            | Type::Vector(ScalarKind::Float, _)
            | Type::Matrix { .. } => {}
            Type::Scalar(k) | Type::Vector(k, _) if k.is_integer() => {
                if !env.version.at_least(130, 300) {
                    error(QualifierError::VaryingBaseFloat(version_name(env.version)));
                }
            }
            Type::Struct(_) => {
                if !env.version.at_least(150, 300) {
                    error(QualifierError::VaryingStruct);
                }
            }
            _ => error(QualifierError::VaryingType),
        }
    }

    if global && storage == StorageClass::In {
        match stage {
            Stage::Vertex => {
                let ok = match base {
                    Type::Scalar(ScalarKind::Float)
                    | Type::Vector(ScalarKind::Float, _)
                    | Type::Matrix { .. } => true,
                    Type::Scalar(k) | Type::Vector(k, _) if k.is_integer() => {
                        env.version.at_least(120, 300)
                    }
                    _ => false,
                };
                if !ok {
                    error(QualifierError::VsInputType {
                        array: if ty.is_array() { "array of " } else { "" },
                        ty: base_name(),
                    });
                } else if ty.is_array() {
                    if let Some(e) = version_error(
                        env,
                        150,
                        0,
                        "vertex shader input / attribute cannot have array type",
                    ) {
                        error(e);
                    }
                }
            }
            // Compute shaders have no inputs (reported with the qualifiers).
            Stage::Compute => {}
            Stage::Geometry => {
                if !ty.is_array() {
                    error(QualifierError::GsInputNotArray);
                }
            }
            Stage::Fragment => {
                if env.version.is_es() {
                    if matches!(
                        base,
                        Type::Scalar(ScalarKind::Bool) | Type::Vector(ScalarKind::Bool, _)
                    ) || base.contains_opaque(structs)
                    {
                        error(QualifierError::FsInputType(base_name()));
                    }
                    if let Type::Array(elem, _) = ty {
                        if matches!(**elem, Type::Struct(_)) {
                            error(QualifierError::FsInputArrayOfStructs);
                        }
                    }
                    if struct_has_aggregate_member(ty, structs) {
                        error(QualifierError::FsInputNestedStruct);
                    }
                }
            }
        }
    }

    if global && storage == StorageClass::Out {
        if stage == Stage::Fragment {
            if matches!(base, Type::Struct(_) | Type::Matrix { .. }) {
                error(QualifierError::FsOutputStructMatrix);
            }
            let numeric = matches!(base, Type::Matrix { .. })
                || matches!(base, Type::Scalar(k) | Type::Vector(k, _) if k.is_numeric());
            if !numeric {
                error(QualifierError::FsOutputType(base_name()));
            }
        }
        if env.version.is_es() && stage != Stage::Fragment {
            if let Type::Array(elem, _) = ty {
                if matches!(**elem, Type::Struct(_)) {
                    error(QualifierError::OutputArrayOfStructs(stage));
                }
            }
            if struct_has_aggregate_member(ty, structs) {
                error(QualifierError::OutputNestedStruct(stage));
            }
        }
    }

    let fragment_input = stage == Stage::Fragment
        && storage == StorageClass::In
        && (global || context == DeclContext::BlockMember(StorageClass::In));
    if fragment_input
        && q.interpolation != Some(Interpolation::Flat)
        && env.version.at_least(130, 300)
        && contains_integer(ty, structs, 0)
    {
        error(QualifierError::FlatRequired);
    }

    let l = &q.layout;
    if global
        && (l.origin_upper_left || l.pixel_center_integer)
        && stage == Stage::Fragment
        && storage == StorageClass::In
    {
        let wrong = match name {
            Some(n) => n != "gl_FragCoord",
            None => *ty != Type::Vector(ScalarKind::Float, 4),
        };
        if wrong {
            let word = if l.origin_upper_left {
                "origin_upper_left"
            } else {
                "pixel_center_integer"
            };
            error(QualifierError::FragCoordLayout(word));
        }
    }
    if global
        && l.depth_layout.is_some()
        && stage == Stage::Fragment
        && storage == StorageClass::Out
    {
        let wrong = match name {
            Some(n) => n != "gl_FragDepth",
            None => *ty != Type::FLOAT,
        };
        if wrong {
            error(QualifierError::DepthLayoutTarget);
        }
    }
    if global
        && l.binding.is_some()
        && storage == StorageClass::Uniform
        && !matches!(base, Type::Sampler(_) | Type::Image(_) | Type::AtomicUint)
    {
        error(QualifierError::BindingType);
    }
    check_image_qualifiers(q, base, context, env, &mut error);
    // GLSL 4.20 §4.4.4.6: `offset` on a variable only for atomic counters
    // (block members are checked with their block).
    if matches!(
        context,
        DeclContext::GlobalVariable | DeclContext::LocalVariable
    ) && l.offset.is_some()
        && !(storage == StorageClass::Uniform && ty.contains_atomic(structs))
    {
        error(QualifierError::OffsetTarget);
    }
    if context == DeclContext::BlockMember(StorageClass::Uniform)
        && l.matrix_layout != crate::hir::MatrixLayout::Inherited
        && !base.is_matrix()
    {
        diags.push(Diagnostic::warning(
            loc,
            QualifierError::MatrixLayoutNonMatrix,
        ));
    }
    super::enhanced::check_component(q, ty, structs, context, loc, &mut diags);
    diags
}

/// GLSL 4.20 §4.4.6.2 (format layout qualifiers) and §4.10 (memory
/// qualifiers) on variables and parameters, as Mesa's
/// `apply_image_qualifier_to_variable` checks them; block members and blocks
/// take memory qualifiers as buffer variables (checked with the block).
fn check_image_qualifiers(
    q: &ResolvedQualifiers,
    base: &Type,
    context: DeclContext,
    env: &QualifierEnv<'_>,
    error: &mut dyn FnMut(QualifierError),
) {
    if !env.has_images() {
        return;
    }
    let format = q.layout.image_format;
    let memory = q.memory;
    let has_memory = memory != crate::hir::MemoryQualifiers::default();
    let variable = matches!(
        context,
        DeclContext::GlobalVariable | DeclContext::LocalVariable | DeclContext::FunctionParameter
    );
    let Type::Image(image) = base else {
        if format.is_some() && !matches!(context, DeclContext::QualifierOnly | DeclContext::Block) {
            error(QualifierError::ImageFormatTarget);
        }
        if has_memory && variable {
            error(QualifierError::MemoryQualifierTarget);
        }
        return;
    };
    // Parameters take memory qualifiers but not formats (§6.1.1).
    if context == DeclContext::FunctionParameter {
        if format.is_some() {
            error(QualifierError::ImageFormatTarget);
        }
        return;
    }
    if context != DeclContext::GlobalVariable || q.storage != StorageClass::Uniform {
        return;
    }
    match format {
        Some(f) if f.kind() != image.kind => error(QualifierError::ImageFormatKind),
        // GLSL ES 3.10 §4.10: "Except for image variables qualified with the
        // format qualifiers r32f, r32i, and r32ui, image variables must
        // specify either memory qualifier readonly or the memory qualifier
        // writeonly."
        Some(f)
            if env.version.is_es()
                && !f.is_single_32bit()
                && !memory.read_only
                && !memory.write_only =>
        {
            error(QualifierError::ImageEsReadWriteFormat)
        }
        Some(_) => {}
        None if env.version.is_es() => error(QualifierError::ImageFormatMissingEs),
        None if !memory.write_only => error(QualifierError::ImageFormatMissing),
        None => {}
    }
}
